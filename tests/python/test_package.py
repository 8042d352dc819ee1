"""The package's shape (python/graphbench): every module imports in a fresh interpreter, no module
imports itself back through others (lazy imports inside functions counted), one BadInput, one
capture(), one writer, one reader of results, nothing put on sys.path, the entry points of
python/pyproject.toml and the commands of scripts/ thin, importing the package (linked beside them)
plainly and working from any folder, and no shell script editing JSON. Runs without PyTorch (a module that needs it at import
is then checked to say so)."""

import ast
import functools
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(SOURCE, "scripts")
PYTHON = os.path.join(SOURCE, "python")  # the package's project: pyproject.toml and graphbench/
PACKAGE = os.path.join(PYTHON, "graphbench")
PLAIN_ENV = {**os.environ, "PYTHONPATH": PYTHON}  # the package found as an install finds it
# Modules whose classes derive from torch.nn.Module, so that importing them imports torch.
TORCH_AT_IMPORT = {"graphbench.models.decoders"}


def has_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def modules():
    """{dotted name: file} of every module of the package (a package by its __init__.py)."""
    out = {}
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, PYTHON)[:-len(".py")].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = path
    return out


def imported(module, path, known):
    """The package's modules that `module` imports anywhere in its file (functions included)."""
    is_package = path.endswith("__init__.py")
    package = module if is_package else module.rsplit(".", 1)[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target in known:
                found.add(target)
            for a in node.names:  # from . import zoo: the module graphbench.models.zoo
                if f"{target}.{a.name}" in known:
                    found.add(f"{target}.{a.name}")
    found.discard(module)
    # A package's __init__ importing nothing of its own is the rule here; a parent package is
    # imported before its modules, so importing graphbench.x.y imports graphbench and graphbench.x.
    return found


def find_cycle(graph):
    """A list of modules that import each other round, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def python_files():
    """The package's files and the commands of scripts/."""
    files = list(modules().values())
    files += [os.path.join(SCRIPTS, n) for n in sorted(os.listdir(SCRIPTS)) if n.endswith(".py")]
    return files


def parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


@functools.lru_cache(maxsize=None)
def nodes_by_file():
    """Every file of python_files() with all its syntax nodes, parsed once for the whole run."""
    return tuple((p, tuple(ast.walk(parse(p)))) for p in python_files())


def definitions(kind, name):
    """Where a class (kind ast.ClassDef) or function (ast.FunctionDef) of this name is defined."""
    return sorted(os.path.relpath(p, SOURCE) for p, nodes in nodes_by_file()
                  for node in nodes if isinstance(node, kind) and node.name == name)


# Run by one interpreter: imports each module named in argv with the package's modules forgotten
# before it, and prints "MODULE<tab>ok", or what failed, or that torch was loaded.
IMPORT_EACH_ALONE = """
import importlib, sys, traceback
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "graphbench" or m.startswith("graphbench.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
        outcome = "loaded torch" if "torch" in sys.modules else "ok"
    except BaseException:
        outcome = traceback.format_exc().replace(chr(10), " | ")
    print(name, outcome, sep=chr(9))
"""


class PackageShape(unittest.TestCase):
    def test_every_module_imports_alone_and_loads_no_torch(self):
        """Each module imports with none of the package loaded before it (one fresh interpreter that
        forgets the package's modules between imports: an interpreter each cost seconds); names,
        suites and --dry-run work without PyTorch: no module but the TORCH_AT_IMPORT ones loads torch."""
        plain = sorted(set(modules()) - TORCH_AT_IMPORT)
        run = subprocess.run([sys.executable, "-c", IMPORT_EACH_ALONE, *plain], capture_output=True, text=True,
                             env=PLAIN_ENV)
        self.assertEqual(run.returncode, 0, run.stderr)
        outcome = dict(line.split("\t", 1) for line in run.stdout.splitlines())
        self.assertEqual(sorted(outcome), plain)
        for module in plain:
            with self.subTest(module=module):
                self.assertEqual(outcome[module], "ok")
        torch = has_torch()
        for module in sorted(TORCH_AT_IMPORT):
            with self.subTest(module=module):
                run = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                                     env=PLAIN_ENV)
                if torch:
                    self.assertEqual(run.returncode, 0, run.stderr)
                else:
                    self.assertIn("No module named 'torch'", run.stderr)

    def test_no_import_circle(self):
        known = modules()
        graph = {m: imported(m, p, known) for m, p in known.items()}
        self.assertIsNone(find_cycle(graph))
        # The check sees a circle where there is one.
        self.assertEqual(find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        # The model sources import the errors and the state, never the other way round.
        self.assertEqual(graph["graphbench.errors"], set())
        self.assertNotIn("graphbench.models.zoo", graph["graphbench.models.own_code"])
        self.assertNotIn("graphbench.models.zoo", graph["graphbench.models.decoders"])

    def test_one_bad_input_one_capture_one_writer(self):
        self.assertEqual(definitions(ast.ClassDef, "BadInput"), ["python/graphbench/errors.py"])
        self.assertEqual(definitions(ast.FunctionDef, "capture"), ["python/graphbench/peers/timing.py"])
        self.assertEqual(definitions(ast.FunctionDef, "sample_us"), ["python/graphbench/peers/timing.py"])
        self.assertEqual(definitions(ast.FunctionDef, "scope_arg"), ["python/graphbench/pieces.py"])
        for writer in ("write_whole", "to_json_text", "write_manifest", "manifest_path"):
            self.assertEqual(definitions(ast.FunctionDef, writer), ["python/graphbench/suites.py"], writer)
        for reader in ("read_json", "read_results", "read_record", "name_scope_groups_of_old_files"):
            self.assertEqual(definitions(ast.FunctionDef, reader), ["python/graphbench/results.py"], reader)

    def test_one_reader_of_files(self):
        """No module but results.py parses a JSON file (json.load); the others read through it."""
        for path in python_files():
            if path.endswith(os.path.join("graphbench", "results.py")):
                continue
            with self.subTest(file=os.path.relpath(path, SOURCE)):
                self.assertNotIn("json.load(", open(path, encoding="utf-8").read())

    def test_one_writer_of_files(self):
        """No module but suites.py opens a file for writing or dumps JSON into one."""
        writes = re.compile(r"""open\([^)]*["'][wa]b?["']|json\.dump\(""")
        for path in python_files():
            if path.endswith(os.path.join("graphbench", "suites.py")):
                continue
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    with self.subTest(file=os.path.relpath(path, SOURCE), line=number):
                        self.assertIsNone(writes.search(line), line.strip())

    def test_nothing_put_on_sys_path(self):
        """In the package, its commands and its tests, sys.path is changed in one place only: the user's own code's folder
        (models/own_code.py, user_folder_first), never to find the package; a change at a module's
        top level (a command's, say) counts as one."""
        def edits_path(node):
            if isinstance(node, ast.Attribute) and node.attr in ("insert", "append", "extend"):
                target = node.value
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                target = next((t.value if isinstance(t, ast.Subscript) else t for t in targets
                               if isinstance(t, (ast.Attribute, ast.Subscript))), None)
            else:
                return False
            return (isinstance(target, ast.Attribute) and target.attr == "path"
                    and isinstance(target.value, ast.Name) and target.value.id == "sys")

        def edits(path):
            found = []
            tree = parse(path)
            in_functions = set()
            for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
                for node in ast.walk(fn):
                    if id(node) not in in_functions:
                        in_functions.add(id(node))
                        if edits_path(node):
                            found.append(f"{os.path.relpath(path, SOURCE)}:{fn.name}")
            found += [f"{os.path.relpath(path, SOURCE)}:<top level>" for node in ast.walk(tree)
                      if id(node) not in in_functions and edits_path(node)]
            return found

        tests = [os.path.join(SOURCE, "tests", sub, n) for sub in ("python", "cli")
                 for n in os.listdir(os.path.join(SOURCE, "tests", sub)) if n.endswith(".py")]
        self.assertEqual(sorted({e for path in python_files() + tests for e in edits(path)}),
                         ["python/graphbench/models/own_code.py:user_folder_first"])
        # The check sees an edit at the top level and in a function, by call and by assignment.
        with tempfile.TemporaryDirectory() as folder:
            bad = os.path.join(folder, "bad.py")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("import sys\nsys.path.insert(0, 'x')\n\ndef f():\n    sys.path[:0] = ['y']\n")
            self.assertEqual(sorted(e.rsplit(":", 1)[1] for e in edits(bad)), ["<top level>", "f"])

    def test_no_loader(self):
        """The package is imported by its name, never loaded from a file by a loader of ours: a file is
        loaded by location (importlib's spec_from_file_location) in own_code.py's load only, for the
        user's own file, and nothing outside the tests registers a module in sys.modules but that."""
        found = []
        for path in python_files():
            for node in ast.walk(parse(path)):
                if isinstance(node, ast.Attribute) and node.attr == "spec_from_file_location":
                    found.append(os.path.relpath(path, SOURCE))
                if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                        and isinstance(node.value, ast.Attribute) and node.value.attr == "modules"):
                    found.append(os.path.relpath(path, SOURCE))
        self.assertEqual(sorted(set(found)), ["python/graphbench/models/own_code.py"])

    def test_graphbench_on_the_path_is_the_package(self):
        """A command's folder, scripts/, is first on Python's path: `graphbench` there is this package
        (a link to python/graphbench) and nothing else of that name; the commands' own names shadow no
        module of Python's standard library nor one the package imports by name."""
        beside = sorted(n for n in os.listdir(SCRIPTS) if n.split(".")[0] == "graphbench")
        self.assertEqual(beside, ["graphbench"])
        self.assertEqual(os.path.realpath(os.path.join(SCRIPTS, "graphbench")), os.path.realpath(PACKAGE))
        self.assertTrue(os.path.isfile(os.path.join(PACKAGE, "__init__.py")))
        commands = {n[:-len(".py")] for n in os.listdir(SCRIPTS) if n.endswith(".py")}
        imported_by_name = set()
        for path in modules().values():
            for node in ast.walk(parse(path)):
                if isinstance(node, ast.Import):
                    imported_by_name.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    imported_by_name.add(node.module.split(".")[0])
        self.assertIn("torch", imported_by_name)
        self.assertEqual(sorted(commands & (imported_by_name | set(sys.stdlib_module_names))), [])

    def test_commands_are_thin_and_answer_help(self):
        """Each command of scripts/ imports graphbench.commands, nothing else, runs its own
        command, and answers --help run from a folder outside the checkout with no PYTHONPATH: the
        package is found beside it (the link)."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        for name in sorted(os.listdir(SCRIPTS)):
            if not name.endswith(".py"):
                continue
            path = os.path.join(SCRIPTS, name)
            with self.subTest(command=name):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                self.assertLessEqual(len(text.splitlines()), 12)
                imports = [node for node in ast.walk(parse(path)) if isinstance(node, (ast.Import, ast.ImportFrom))]
                self.assertEqual([ast.unparse(node) for node in imports], ["from graphbench.commands import run"])
                self.assertIn("\nfrom graphbench.commands import run\n", text)
                self.assertIn(f'raise SystemExit(run("{name[:-len(".py")].replace("-", "_")}"))', text)
                with tempfile.TemporaryDirectory() as folder:
                    run = subprocess.run([sys.executable, path, "--help"], capture_output=True, text=True,
                                         cwd=folder, env=env)
                self.assertEqual(run.returncode, 0, run.stderr)
                self.assertIn("usage:", run.stdout)

    def test_entry_points_are_the_commands(self):
        """python/pyproject.toml's [project.scripts] are graphbench.commands' commands, each naming a
        module with a main; scripts/ holds no command that is not one of them."""
        try:
            import tomllib
        except ImportError:
            self.skipTest("no tomllib (Python 3.11 or later reads pyproject.toml)")
        with open(os.path.join(PYTHON, "pyproject.toml"), "rb") as f:
            project = tomllib.load(f)["project"]
        self.assertEqual(project["dependencies"], [])
        run = subprocess.run([sys.executable, "-c", "import graphbench.commands as c; print(*sorted(c.COMMANDS))"],
                             capture_output=True, text=True, env=PLAIN_ENV)
        self.assertEqual(run.returncode, 0, run.stderr)
        commands = run.stdout.split()
        self.assertEqual(project["scripts"], {n: f"graphbench.commands:{n}" for n in commands})
        wrappers = {n[:-len(".py")].replace("-", "_") for n in os.listdir(SCRIPTS) if n.endswith(".py")}
        self.assertEqual(wrappers - set(commands), set())

    def test_docs_name_stages_that_exist(self):
        """Every `scripts/gpu-check.sh STAGE...` and `scripts/campaigns/run.sh STAGE...` of the README
        and docs/ names stages that script has."""
        with open(os.path.join(SCRIPTS, "gpu-check.sh"), encoding="utf-8") as f:
            check = {s for line in f for m in [re.match(r"^    ([a-z0-9_|-]+)\)$", line)] if m for s in m.group(1).split("|")}
        campaign = set()
        folder = os.path.join(SCRIPTS, "campaigns")
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                campaign |= {m.group(1).replace("_", "-") for line in f for m in [re.match(r"^stage_(\w+)\(\)", line)] if m}
        self.assertIn("build", check)
        self.assertIn("scopes", campaign)
        stages = {"gpu-check.sh": check, "campaigns/run.sh": campaign}
        pages = [os.path.join(SOURCE, "README.md")] + [os.path.join(SOURCE, "docs", n)
                                                       for n in sorted(os.listdir(os.path.join(SOURCE, "docs")))]
        named = 0
        for page in pages:
            with open(page, encoding="utf-8") as f:
                text = f.read()
            for m in re.finditer(r"`scripts/(gpu-check\.sh|campaigns/run\.sh)((?:\s+[a-z0-9_-]+)*)", text):
                for stage in m.group(2).split():
                    named += 1
                    with self.subTest(page=os.path.basename(page), command=m.group(0)):
                        self.assertIn(stage, stages[m.group(1)])
        self.assertGreater(named, 10)

    def test_shell_scripts_edit_no_json(self):
        """Shell scripts call commands (scripts/suites.py); they hold no Python that reads or writes JSON."""
        inline = re.compile(r"json\.(dump|load)")
        for folder, _, files in os.walk(SCRIPTS):
            for name in files:
                if name.endswith(".sh"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        for number, line in enumerate(f, 1):
                            with self.subTest(file=os.path.relpath(path, SOURCE), line=number):
                                self.assertIsNone(inline.search(line), line.strip())


if __name__ == "__main__":
    unittest.main()
