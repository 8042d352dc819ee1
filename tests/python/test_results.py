"""graphbench.results, the one reader of results.json: committed runs read whole and typed, the old
files' scope groups (before records carried scope_group) named as C++'s reader names them, and bad
input (missing file, not JSON, a missing or mistyped field) one BadInput naming the file and the
field, which a command turns into exit 2."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from graphbench.errors import BadInput
from graphbench.results import read_results

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NEW = os.path.join(SOURCE, "results", "NVIDIA-H100", "scopes-inductor", "results.json")
OLD = os.path.join(SOURCE, "results", "NVIDIA-H100", "scopes-builtin", "results.json")


class Results(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def write(self, text):
        path = os.path.join(self.folder.name, "results.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def bad(self, text):
        path = self.write(text)
        with self.assertRaises(BadInput) as caught:
            read_results(path)
        self.assertIn(path, str(caught.exception))
        return str(caught.exception)

    def test_a_committed_run_read_whole_and_typed(self):
        with open(NEW, encoding="utf-8") as f:
            raw = json.load(f)
        run = read_results(os.path.dirname(NEW))  # a folder holding results.json is read the same
        self.assertEqual(run.path, NEW)
        self.assertEqual(len(run.records), len(raw["records"]))
        self.assertEqual(run.environment, raw["environment"])
        first, raw_first = run.records[0], raw["records"][0]
        self.assertEqual((first.case, first.variant, first.kind, first.status, first.median_us),
                         tuple(raw_first.get(k) for k in ("case", "variant", "kind", "status", "median_us")))
        self.assertEqual(first.scope_group, raw_first["scope_group"])  # written by the file: kept
        self.assertEqual(first.get("workload"), raw_first["workload"])
        self.assertEqual(len(run.benchmarks()), sum(r["kind"] == "benchmark" for r in raw["records"]))

    def test_an_old_file_gets_its_scope_groups_from_the_names(self):
        run = read_results(OLD)
        self.assertFalse(any("scope_group" in r.raw for r in run.records))  # an old file indeed
        swept = [r for r in run.records if "[scope=" in r.case]
        self.assertTrue(swept)
        for r in swept:
            self.assertEqual(r.scope_group, r.case.replace(f"[scope={r.scope}]", ""))
        record = {"case": "a[scope=layer]-b8", "variant": "graph", "kind": "benchmark", "status": "ok", "scope": "layer"}
        plain = dict(record, case="c")
        run = read_results(self.write(json.dumps({"records": [record, plain]})))
        self.assertEqual([r.scope_group for r in run.records], ["a-b8", ""])
        # A file whose records carry scope_group is taken at its word.
        run = read_results(self.write(json.dumps({"records": [dict(record, scope_group="g"), plain]})))
        self.assertEqual([r.scope_group for r in run.records], ["g", ""])

    def test_bad_input_names_the_file_and_the_field(self):
        self.assertIn("cannot read the results file", self.bad("{"))  # not JSON
        self.assertIn("not JSON", self.bad("{"))
        self.assertIn("/records: expected a list", self.bad('{"environment": {}}'))
        record = {"case": "a", "variant": "eager", "kind": "benchmark", "status": "ok"}
        for field in ("case", "variant", "kind", "status"):
            missing = {k: v for k, v in record.items() if k != field}
            self.assertIn(f"/records/1/{field}: expected a string", self.bad(json.dumps({"records": [record, missing]})))
        self.assertIn("/records/0/median_us: expected a number",
                      self.bad(json.dumps({"records": [dict(record, median_us="fast")]})))
        self.assertIn("/environment: expected an object", self.bad(json.dumps({"records": [], "environment": []})))
        with self.assertRaises(BadInput) as caught:
            read_results(os.path.join(self.folder.name, "missing.json"))
        self.assertIn("missing.json: cannot read the results file", str(caught.exception))

    def test_every_results_command_exits_2_on_bad_input(self):
        path = self.write('{"records": [{"case": "a"}]}')
        for command in ("blog_table", "blog_targets", "ddp_table", "plot_speedups", "plot_sweep"):
            with self.subTest(command=command):
                run = subprocess.run([sys.executable, "-m", "graphbench.commands", command, path],
                                     capture_output=True, text=True)
                self.assertEqual(run.returncode, 2, run.stderr)
                self.assertIn(f"{path}: /records/0/variant: expected a string", run.stderr)
        run = subprocess.run([sys.executable, "-m", "graphbench.commands", "mnist_ratios", path, path],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 2, run.stderr)


if __name__ == "__main__":
    unittest.main()
