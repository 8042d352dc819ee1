"""The segment rule as one contract with graphbench: pieces.segments cuts the tags of
tests/golden/segments.json into its segments, as split_into_segments does in the C++ tests
(tests/engine/segments_test.cpp reads the same file)."""

import json
import os
import sys
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphbench import pieces  # noqa: E402

with open(os.path.join(SOURCE, "tests", "golden", "segments.json"), encoding="utf-8") as f:
    GOLDEN = json.load(f)


class Grammar(unittest.TestCase):
    def test_golden_grammar(self):
        """pieces.parse_capture_scope reads each text as graphbench's parse_capture_scope does
        (tests/core/capture_scope_test.cpp reads the same cases)."""
        self.assertGreaterEqual(len(GOLDEN["grammar"]), 10)
        for g in GOLDEN["grammar"]:
            with self.subTest(text=g["text"]):
                if "error" in g:
                    with self.assertRaises(pieces.BadScope) as raised:
                        pieces.parse_capture_scope(g["text"])
                    self.assertIn(g["error"], str(raised.exception))
                    continue
                scope = pieces.parse_capture_scope(g["text"])
                self.assertEqual((scope.kind, scope.regex, scope.pool_each, scope.text()),
                                 (g["kind"], g["regex"], g["pool_each"], g["canonical"]))

    def test_splitting_scopes(self):
        """--scope takes the scopes that cut a model, and says why the others cut nothing."""
        self.assertEqual(pieces.parse_scopes("layer,modules=attn").__len__(), 2)
        for text, message in (("full", "--scope full is the whole model"),
                              ("fwd-bwd", "--scope fwd-bwd captures a training step's"),
                              ("layer:pool-each", ":pool-each says how graphbench pools the graphs"),
                              ("layers", "--scope 'layers': expected one of layer, attention-out, auto, modules=REGEX"),
                              ("modules=(", "--scope: scope 'modules=(': the modules regex does not compile"),
                              ("layer,layer", "a scope named twice")):
            with self.subTest(text=text):
                with self.assertRaises(pieces.BadScope) as raised:
                    pieces.parse_scopes(text)
                self.assertIn(message, str(raised.exception))


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
