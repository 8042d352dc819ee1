"""Runs the package's unittest files (tests/python/test_*.py) with this Python. Exit codes: 0 all
passed, 1 one failed or none ran; with --needs-torch, 77 (ctest's skip) where this Python has no
PyTorch."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    if "--needs-torch" in sys.argv[1:]:
        try:
            import torch  # noqa: F401
        except ImportError:
            print(f"run_tests.py: skipped: no PyTorch in {sys.executable}")
            sys.exit(77)
    tests = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=2).run(tests)
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)
