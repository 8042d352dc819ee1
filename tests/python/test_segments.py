"""The segment rule as one contract with graphbench: pieces.segments cuts the tags of
tests/golden/segments.json into its segments, as split_into_segments does in the C++ tests
(tests/engine/segments_test.cpp reads the same file)."""

import json
import os
import sys
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "scripts"))  # the tests put the package on the path

from graphbench import pieces  # noqa: E402

with open(os.path.join(SOURCE, "tests", "golden", "segments.json"), encoding="utf-8") as f:
    GOLDEN = json.load(f)


class Segments(unittest.TestCase):
    def test_golden_cases(self):
        self.assertGreaterEqual(len(GOLDEN["cases"]), 5)
        for case in GOLDEN["cases"]:
            with self.subTest(case=case["name"]):
                groups = pieces.segments(case["tags"], pieces.parse_scope(case["scope"]), train=case["train"])
                got = [[indices[0], indices[-1] + 1, captured] for captured, indices in groups]
                self.assertEqual(got, case["segments"])
                # Segments cover the pieces in order, none empty.
                self.assertEqual([k for _, indices in groups for k in indices], list(range(len(case["tags"]))))


if __name__ == "__main__":
    unittest.main()
