"""Loads python/graphbench (beside this folder) as the package `graphbench` for the commands of
scripts/, without putting anything on sys.path: each command imports this module first (Python puts
a script's own folder first on its path, so `import _package` finds this file), then imports its
module of the package and calls its main(). docs/python.md says why."""

import importlib.util
import os
import sys


def _load():
    if "graphbench" in sys.modules:
        return
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python", "graphbench")
    spec = importlib.util.spec_from_file_location("graphbench", os.path.join(folder, "__init__.py"),
                                                  submodule_search_locations=[folder])
    module = importlib.util.module_from_spec(spec)
    sys.modules["graphbench"] = module
    spec.loader.exec_module(module)


_load()
