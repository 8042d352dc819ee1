"""scripts/check-layers.py on small trees: an include from a lower layer to a higher one (core to
the engine, communication to the data-parallel cases, src/ to a workload's header), LibTorch in
core and a folder of no layer each fail it, naming the file and line; includes down the layers pass."""

import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMAND = os.path.join(SOURCE, "scripts", "check-layers.py")


class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, path, text, under="src/graphbench"):
        full = os.path.join(self.dir.name, under, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def check(self):
        return subprocess.run([sys.executable, COMMAND, self.dir.name], capture_output=True, text=True)

    def test_includes_down_the_layers_pass(self):
        self.write("engine/exec/engine.cpp", '#include "graphbench/core/stats/statistics.h"\n#include <ATen/ATen.h>\n')
        self.write("parallel/cases/case.cpp", '#include "graphbench/parallel/communication/heartbeat.h"\n'
                   '#include "graphbench/engine/exec/engine.h"\n')
        self.write("core/sampling/sampler.cpp", '#include "graphbench/core/stats/statistics.h"\n')
        done = self.check()
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_an_include_up_a_layer_fails_naming_file_and_line(self):
        self.write("core/compare/compare.cpp", '// x\n#include "graphbench/engine/exec/engine.h"\n')
        self.write("parallel/communication/communicator.cpp",
                   '#include "graphbench/parallel/cases/progress_watchdog.h"\n')
        self.write("engine/runner/case.cpp", '\n\n#include "common/case_helpers.h"\n')
        self.write("common/case_helpers.h", "\n", under="bench")
        done = self.check()
        self.assertEqual(done.returncode, 1)
        self.assertIn("src/graphbench/core/compare/compare.cpp:2: core includes graphbench/engine/exec/engine.h of engine",
                      done.stdout)
        self.assertIn("communicator.cpp:1: parallel/communication includes graphbench/parallel/cases/progress_watchdog.h",
                      done.stdout)
        self.assertIn("engine/runner/case.cpp:3: engine includes common/case_helpers.h of apps/bench", done.stdout)

    def test_libtorch_in_core_and_a_folder_of_no_library_fail(self):
        self.write("core/stats/statistics.cpp", "#include <ATen/ATen.h>\n")
        self.write("misc/thing/thing.cpp", "\n")
        self.write("engine/loose.cpp", "\n")
        done = self.check()
        self.assertEqual(done.returncode, 1)
        self.assertIn("the core layer includes LibTorch (ATen/ATen.h)", done.stdout)
        self.assertIn("src/graphbench/misc/thing/thing.cpp: a folder of no layer", done.stdout)
        self.assertIn("src/graphbench/engine/loose.cpp: a folder of no layer", done.stdout)


if __name__ == "__main__":
    unittest.main()
