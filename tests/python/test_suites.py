"""The package's one writer (graphbench.suites) and its command, scripts/suites.py: suites joined
with their model paths kept true, a scopes suite swept over the scopes each case compares, a
package described, cases added or replaced, files whole; bad input exits 2 naming the file."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphbench import suites  # noqa: E402
from graphbench.errors import BadInput  # noqa: E402

COMMAND = os.path.join(SOURCE, "scripts", "suites.py")


def suite(name, *cases):
    return {"schema_version": 1, "suite": name, "description": "d", "defaults": {"warmup": 1}, "cases": list(cases)}



def rec(**fields):
    """A results record with the fields every reader needs (graphbench.results)."""
    return {"case": "a", "variant": "eager", "kind": "benchmark", "status": "ok", **fields}

class Suites(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, *parts):
        return os.path.join(self.dir.name, *parts)

    def write(self, rel, value):
        path = self.path(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(value, f)
        return path

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return json.load(f)

    def command(self, *args):
        return subprocess.run([sys.executable, COMMAND, *args], capture_output=True, text=True)

    def test_join_keeps_model_paths_true_and_the_first_suites_settings(self):
        a = self.write("models/a.json", suite("a", {"name": "x", "path": "x.pt"}))
        b = self.write("models/part/b.json", suite("b", {"name": "y", "path": "y.pt"}, {"name": "z", "path": "/abs/z.pt"}))
        run = self.command("join", self.path("models/ab.json"), a, b, self.path("models/gone.json"), "--suite-name", "ab")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("gone.json: not there, left out", run.stderr)
        joined = self.read("models/ab.json")
        self.assertEqual(joined["suite"], "ab")
        self.assertEqual(joined["defaults"], {"warmup": 1})
        self.assertEqual([(c["name"], c["path"]) for c in joined["cases"]],
                         [("x", "x.pt"), ("y", os.path.join("part", "y.pt")), ("z", "/abs/z.pt")])

    def test_join_keeps_the_pieces_paths_true(self):
        part = self.write("models/part.json", suite("p", {"name": "c", "path": "m.pt", "piece_outputs": ["piece1.out0"],
                                                          "pieces": [{"path": "m.layer.piece0.pt", "inputs": ["input0"]},
                                                                     {"path": "/abs/m.piece1.pt2", "inputs": ["piece0.out0"]}]}))
        self.assertEqual(suites.join(self.path("configs/s.json"), [part]), [])
        case = self.read("configs/s.json")["cases"][0]
        self.assertEqual(case["path"], os.path.join("..", "models", "m.pt"))
        self.assertEqual([p["path"] for p in case["pieces"]], [os.path.join("..", "models", "m.layer.piece0.pt"),
                                                               "/abs/m.piece1.pt2"])
        self.assertEqual(case["pieces"][1]["inputs"], ["piece0.out0"])

    def test_join_into_the_first_input(self):
        a = self.write("s.json", suite("s", {"name": "x", "path": "x.pt"}))
        b = self.write("tmp/l.json", suite("l", {"name": "y", "path": "y.pt"}))
        self.assertEqual(suites.join(a, [a, b]), [])
        self.assertEqual([c["path"] for c in self.read("s.json")["cases"]], ["x.pt", os.path.join("tmp", "y.pt")])

    def test_join_of_nothing_and_of_a_non_suite_exit_2(self):
        run = self.command("join", self.path("out.json"), self.path("none.json"))
        self.assertEqual(run.returncode, 2)
        self.assertIn("none.json", run.stderr)
        bad = self.write("bad.json", {"cases": 3})
        run = self.command("join", self.path("out.json"), bad)
        self.assertEqual(run.returncode, 2)
        self.assertIn("bad.json: /cases: expected a list", run.stderr)
        self.assertFalse(os.path.exists(self.path("out.json")))

    def test_sweep_scopes(self):
        path = self.write("scopes.json", suite("scopes",
                                               {"name": "llama-pt-layer+attention-out"},
                                               {"name": "moe-pt-auto"},
                                               {"name": "r18-train-pt-layer", "mode": "train", "pieces": []},
                                               {"name": "r18-train", "mode": "train"},
                                               {"name": "r50-pt-layer"}))
        run = self.command("sweep-scopes", path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual([c["sweep"]["scope"] for c in self.read("scopes.json")["cases"]],
                         [["full", "attention-out", "layer", "layer:pool-each"], ["full", "auto"],
                          ["full", "fwd-bwd", "layer"], ["full", "fwd-bwd"], ["full", "layer"]])

    def test_package_facts(self):
        package = self.path("m.pt2")
        with zipfile.ZipFile(package, "w") as z:
            z.writestr("a", b"x" * 100)
            z.writestr("b", b"y" * 20)
        self.write("m.pt2.json", {"sizes": {"file_bytes": 1}, "export_times": {"total_s": 2.0}, "model": "m"})
        run = self.command("package-facts", package)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn('{"sizes": {"file_bytes": 1}, "export_times": {"total_s": 2.0}}', run.stdout)
        self.assertIn("unpacked: 120 bytes in 2 entries", run.stdout)
        run = self.command("package-facts", self.path("none.pt2"))
        self.assertEqual(run.returncode, 2)
        self.assertIn("none.pt2: no such package", run.stderr)

    def test_add_cases_replaces_by_name_and_writes_whole(self):
        path = self.path("new", "suite.json")
        suites.add_cases(path, [{"name": "a", "v": 1}], suites.new_suite("s", "d", {}))
        suites.add_cases(path, [{"name": "b"}, {"name": "a", "v": 2}], None)
        self.assertEqual(self.read("new/suite.json")["cases"], [{"name": "b"}, {"name": "a", "v": 2}])
        self.assertEqual(os.listdir(self.path("new")), ["suite.json"])  # no temporary left
        with self.assertRaises(BadInput):
            suites.add_cases(self.path("missing.json"), [], None)

    def test_merge_results_joins_the_parts_records_in_order(self):
        one = self.write("parts/part-1/results.json", {"schema_version": 3, "environment": {"gpu": "g"},
                                                       "records": [rec(batch=1), rec(batch=2)],
                                                       "sweeps": [{"over": "batch"}]})
        self.write("parts/part-2/results.json", {"schema_version": 3, "environment": {"gpu": "other"},
                                                 "records": [rec(batch=4)], "sweeps": [{"over": "batch"}]})
        out = self.path("out", "merged.json")
        run = self.command("merge-results", one, self.path("parts", "part-2"), "-o", out)  # a file and a folder
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("merged 2 part(s): 3 records", run.stdout)
        merged = self.read("out/merged.json")
        self.assertEqual(merged["environment"], {"gpu": "g"})  # the first part's fields
        self.assertEqual([r["batch"] for r in merged["records"]], [1, 2, 4])
        self.assertEqual(merged["sweeps"], [])  # a sweep's verdict spans one run
        run = self.command("merge-results", one, "-o", out)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(self.read("out/merged.json")["sweeps"], [{"over": "batch"}])
        self.assertEqual(os.listdir(self.path("out")), ["merged.json"])  # no temporary left

    def test_merge_results_of_a_missing_or_non_results_part_exit_2(self):
        out = self.path("merged.json")
        one = self.write("part-1/results.json", {"records": []})
        run = self.command("merge-results", one, self.path("part-2"), "-o", out)
        self.assertEqual(run.returncode, 2)
        self.assertIn(os.path.join("part-2") + ": cannot read the results file", run.stderr)
        bad = self.write("bad.json", {"records": {}})
        run = self.command("merge-results", one, bad, "-o", out)
        self.assertEqual(run.returncode, 2)
        self.assertIn("bad.json: /records: expected a list", run.stderr)
        self.assertFalse(os.path.exists(out))

    def test_json_layout(self):
        self.assertEqual(suites.to_json_text({"a": [1, 2]}), '{"a": [1, 2]}')
        long = {"k": ["x" * 60, "y" * 60]}
        self.assertEqual(suites.to_json_text(long), '{\n  "k": [\n    "' + "x" * 60 + '",\n    "' + "y" * 60 + '"\n  ]\n}')


if __name__ == "__main__":
    unittest.main()
