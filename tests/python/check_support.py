"""What the Python check scripts of tests/python (and tests/cli/check_rank_traces.py) share: checks
that record a failure and go on and the exit code that sums them up.
The package is imported by name: installed (pip install -e python/) or on PYTHONPATH (ctest sets it)."""

import os
import shutil
import sys

failures = []


def check(condition, what):
    """Records `what` as failed (and prints it) unless `condition` holds; the checks go on."""
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def fresh_dir(path):
    """An empty folder at `path`: what an earlier run left there is removed."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def case_named(suite, name):
    """The case of `suite` (a suite file's JSON) named `name`, or None."""
    return next((c for c in suite["cases"] if c["name"] == name), None)


def finish(prog):
    """0 when every check passed, else 1; says which."""
    if failures:
        print(f"{prog}: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print(f"{prog}: all checks passed")
    return 0


def run_in_process(name, argv):
    """Command `name` of graphbench.commands on `argv` in this interpreter, as a CompletedProcess (exit
    code, standard output and error). For checks of bad arguments, which a command refuses before it
    loads anything: each start of an interpreter costs about 0.1 s, and test_package.py checks that
    every command of scripts/ is graphbench.commands.run in a process of its own."""
    import contextlib
    import io
    import subprocess

    from graphbench.commands import run

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = run(name, list(argv))
        except SystemExit as e:  # argparse's usage errors
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return subprocess.CompletedProcess([name, *argv], code, out.getvalue(), err.getvalue())


# The scripts that export real models with PyTorch and run graphbench on the CPU share these.

SKIP = 77  # ctest's SKIP_RETURN_CODE for these scripts

# The sample counts bound the time; a generous limit keeps a loaded CI machine from cutting validation.
QUICK = ["--min-samples", "3", "--max-samples", "5", "--min-time", "0.02", "--max-time", "60", "--warmup", "1"]


def has_torch(prog):
    """True where this Python has PyTorch; otherwise says the script is skipped."""
    try:
        import torch  # noqa: F401
    except ImportError:
        print(f"{prog}: skipped: needs PyTorch in this Python")
        return False
    return True


def export(source_dir, *args):
    """scripts/export_model.py with `args`, run from the source folder."""
    import os
    import subprocess

    return subprocess.run([sys.executable, os.path.join(source_dir, "scripts", "export_model.py"), *args],
                          cwd=source_dir, capture_output=True, text=True)


def run_graphbench(graphbench, suite, out, *extra):
    """`graphbench run` of `suite` on the CPU, eager and static, quickly, into `out`."""
    import subprocess

    return subprocess.run([graphbench, "run", "--config", suite, "--device", "cpu", "--variants", "eager,static",
                           *QUICK, "-o", out, *extra], capture_output=True, text=True)


def read_records(out):
    """The records of `out`/results.json; a failed check and none when it cannot be read."""
    import json
    import os

    try:
        with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
            return json.load(f)["records"]
    except (OSError, ValueError, KeyError) as e:
        check(False, f"no results.json ({e})")
        return []
