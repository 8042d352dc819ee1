#!/usr/bin/env python3
"""Checks of the py: model source (python/graphbench/models/own_code.py, your own code) that need no PyTorch: the
parsing of py:FILE.py:CALLABLE and py:MODULE:CALLABLE and of --input-range, every bad input
refused by export_model.py with exit code 2 and a message naming the file and the callable, and
the suite --dry-run writes from a callable's examples, and a user's file that imports the package
(graphbench.models.state) exported from outside the checkout. The user's code runs against the
stand-in torch of tests/cli/own_code/stub_torch (put first on PYTHONPATH), so that these checks run
on a machine without PyTorch; tests/cli/check_own_code_torch.py runs the real thing where there is one.

    check_own_code.py SOURCE_DIR WORK_DIR
"""

import json
import os
import subprocess
import sys

from check_support import check, finish, fresh_dir

BAD = "py:tests/cli/own_code/bad_models.py"


def check_parsing(own_code, model_zoo):
    parse = own_code.parse_source
    check(parse("py:examples/conv_attention.py:make_model") ==
          own_code.PySource(file="examples/conv_attention.py", attribute="make_model"), "a file source")
    check(parse("py:my.models:Factory.build") == own_code.PySource(module="my.models", attribute="Factory.build"),
          "a module source with an attribute of an object")
    check(parse("py:C:/work/m.py:make") == own_code.PySource(file="C:/work/m.py", attribute="make"),
          "the callable is after the last colon")
    for bad, message in (("py:examples/conv_attention.py", "expected py:FILE.py:CALLABLE or py:MODULE:CALLABLE"),
                         ("py::make_model", "expected py:FILE.py:CALLABLE"),
                         ("py:m.py:", "expected py:FILE.py:CALLABLE"),
                         ("py:m.py:make-model", "'make-model' is not a Python name"),
                         ("py:examples/conv_attention:make_model", "is neither a .py file nor a dotted module name"),
                         ("py:my-models:make", "is neither a .py file nor a dotted module name")):
        try:
            parse(bad)
            check(False, f"{bad!r} parsed")
        except model_zoo.BadInput as e:
            check(message in str(e), f"message for {bad!r}: {e}")
    check(own_code.parse_input_range("0,1000") == (None, 0, 1000), "--input-range LO,HI")
    check(own_code.parse_input_range("2=-5,5") == (2, -5, 5), "--input-range N=LO,HI")
    for bad, message in (("5,1", "expected LO < HI"), ("1=2", "expected [N=]LO,HI"), ("a=0,1", "expected [N=]LO,HI"),
                         ("-1=0,1", "input position -1 is negative")):
        try:
            own_code.parse_input_range(bad)
            check(False, f"--input-range {bad!r} parsed")
        except model_zoo.BadInput as e:
            check(message in str(e), f"message for --input-range {bad!r}: {e}")

    case = model_zoo.ModelCase("py:examples/conv_attention.py:make_model", 8, mode="train")
    check(case.stem() == "py-conv_attention-make_model-b8-train", f"stem of a file's callable: {case.stem()}")
    case = model_zoo.ModelCase("py:my.models:Factory.build", 1, dynamic_batch=64)
    check(case.stem() == "py-models-Factory.build-bmax64", f"stem of a module's callable: {case.stem()}")
    case.example_inputs = [{"shape": [1, 5], "dtype": "int64", "range": [0, 9]},
                           {"shape": [1], "dtype": "int64", "range": [0, 3], "batched": True},
                           {"shape": [4, 4], "dtype": "float32", "batched": False}]
    check(case.recorded_inputs() == [{"shape": [-1, 5], "dtype": "int64", "max": [64, 5]},
                                     {"shape": [-1], "dtype": "int64", "max": [64]},
                                     {"shape": [4, 4], "dtype": "float32"}],
          f"a dynamic batch goes on the batched inputs: {case.recorded_inputs()}")
    # A dynamic cache length goes on dimension 2 of the state inputs, beside the batch.
    case = model_zoo.ModelCase("py:examples/tiny_decode.py:make_model", 2, dynamic_batch=8, dynamic_cache=512)
    case.example_inputs = [{"shape": [2, 1], "dtype": "int64", "range": [0, 9]},
                           {"shape": [1], "dtype": "int64", "range": [5, 6]},
                           {"shape": [2, 2, 32, 16], "dtype": "float32", "role": "state", "seed": 3, "scale": 0.5}]
    check(case.stem() == "py-tiny_decode-make_model-bmax8-cmax512", f"stem of a dynamic cache: {case.stem()}")
    check(case.recorded_inputs() == [{"shape": [-1, 1], "dtype": "int64", "max": [8, 1]},
                                     {"shape": [1], "dtype": "int64"},
                                     {"shape": [-1, 2, -1, 16], "dtype": "float32", "max": [8, 2, 512, 16]}],
          f"a dynamic cache's recorded inputs: {case.recorded_inputs()}")
    check(case.dynamic_dims() == [{0: ("batch", 8)}, {}, {0: ("batch", 8), 2: ("cache", 512)}],
          f"a dynamic cache's dimensions: {case.dynamic_dims()}")
    check(case.cache_length() == 32, f"the example's cache length: {case.cache_length()}")
    for inputs, message in (
            (case.example_inputs[:2], "--dynamic-cache: no input is state"),
            ([{"shape": [2, 16], "dtype": "float32", "role": "state"}], "state input 0 has shape [2, 16], expected a KV cache"),
            ([{"shape": [2, 2, 32, 16], "dtype": "float32", "role": "state"},
              {"shape": [2, 2, 64, 16], "dtype": "float32", "role": "state"}], "the state inputs' lengths (dimension 2) "
                                                                              "differ ([32, 64])"),
            ([{"shape": [2, 2, 1024, 16], "dtype": "float32", "role": "state"}],
             "--dynamic-cache 512 must be at least the example's cache length 1024")):
        case.example_inputs = inputs
        try:
            case.check_cache_inputs("tiny_decode.py:make_model")
            check(False, f"--dynamic-cache over {inputs} accepted")
        except model_zoo.BadInput as e:
            check(message in str(e), f"--dynamic-cache over {inputs}: {e}")


def export(source_dir, work_dir, *args):
    """export_model.py ARGS in the source folder, the stand-in torch first on the path."""
    env = {**os.environ, "PYTHONPATH": os.path.join(source_dir, "tests", "cli", "own_code", "stub_torch")}
    return subprocess.run([sys.executable, os.path.join(source_dir, "scripts", "export_model.py"), *args, "--dry-run"],
                          cwd=source_dir, env=env, capture_output=True, text=True)


def check_bad_input(source_dir, work_dir):
    out = ["-o", os.path.join(work_dir, "bad")]
    for args, message in (
            (["py:tests/cli/own_code/missing.py:make_model"],
             "tests/cli/own_code/missing.py:make_model: no such file "),
            (["py:no_such_package_for_graphbench.models:make_model"],
             "no_such_package_for_graphbench.models:make_model: no such module 'no_such_package_for_graphbench.models'"),
            (["py:tests.cli.own_code.no_such_module:make_model"], "no such module 'tests.cli.own_code.no_such_module'"),
            ([f"{BAD}:nope"], "bad_models.py:nope: no such attribute 'nope' in "),
            ([f"{BAD}:nope"], "(it defines Double, float64_input, good,"),
            (["py:tests.cli.own_code.bad_models:nope"], "tests.cli.own_code.bad_models:nope: no such attribute 'nope'"),
            (["py:tests/cli/own_code/syntax_error.py:make_model"],
             "syntax_error.py:make_model: " + os.path.join(source_dir, "tests/cli/own_code/syntax_error.py") +
             " line 1: SyntaxError"),
            (["py:tests/cli/own_code/imports_missing.py:make_model"],
             "imports_missing.py:make_model: importing tests/cli/own_code/imports_missing.py failed: "
             "ModuleNotFoundError: No module named 'no_such_module_for_graphbench'"),
            ([f"{BAD}:NOT_CALLABLE"], "bad_models.py:NOT_CALLABLE: is of type int, not a callable"),
            ([f"{BAD}:raises", "--batch", "3"],
             "bad_models.py:raises: raises(batch=3) raised ValueError: no weights for batch 3"),
            ([f"{BAD}:returns_int"], "bad_models.py:returns_int: returned a value of type int; expected (model, inputs)"),
            ([f"{BAD}:returns_one"], "bad_models.py:returns_one: returned a tuple of 1; expected (model, inputs)"),
            ([f"{BAD}:returns_unknown_key"], "returned a dict with unknown keys ['labels']"),
            ([f"{BAD}:not_a_module"],
             "bad_models.py:not_a_module: returned a value of type object as the model, expected a torch.nn.Module"),
            ([f"{BAD}:inputs_not_tensors"],
             "bad_models.py:inputs_not_tensors: its input 1 is of type list, expected a tensor"),
            ([f"{BAD}:float64_input"],
             "bad_models.py:float64_input: its input 0 is float64, expected one of float32, float16, bfloat16, int64"),
            ([f"{BAD}:loss_not_scalar", "--mode", "train"],
             "bad_models.py:loss_not_scalar: its loss returned a float32 tensor of shape [1, 3], expected a scalar"),
            ([f"{BAD}:loss_returns_float", "--mode", "train"],
             "bad_models.py:loss_returns_float: its loss returned a value of type float, expected a scalar"),
            ([f"{BAD}:loss_raises", "--mode", "train"],
             "bad_models.py:loss_raises: its loss raised RuntimeError: target size mismatch"),
            ([f"{BAD}:range_on_float"], "bad_models.py:range_on_float: a range for input 0, which is float32"),
            ([f"{BAD}:no_batch", "--batch", "2"],
             "bad_models.py:no_batch: takes no batch keyword, so --batch cannot set its batch"),
            ([f"{BAD}:unbatched", "--dynamic-batch", "8", "--format", "pt2"],
             "bad_models.py:unbatched: --dynamic-batch: no input has the batch (1) as its dimension 0"),
            ([f"{BAD}:position_on_float"],
             "bad_models.py:position_on_float: position names input 0, a float32 tensor of shape [1, 3]: expected an "
             "int64 tensor of one element"),
            ([f"{BAD}:position_past_inputs"],
             "bad_models.py:position_past_inputs: position is 2, expected an input's index, 0 to 0"),
            ([f"{BAD}:good", "--dynamic-cache", "64", "--format", "pt2"],
             "bad_models.py:good: --dynamic-cache: no input is state (the callable's \"state\" names none)"),
            ([f"{BAD}:good", "--input-range", "3=0,5"], "bad_models.py:good: --input-range names input 3; the case has 2"),
            ([f"{BAD}:good", "--dtype", "float16"], "--dtype: py:tests/cli/own_code/bad_models.py:good keeps the dtypes"),
            ([f"{BAD}:good", "--input-range", "5,1"], "expected LO < HI"),
            (["torchvision:resnet18", "--input-range", "0,5"], "--input-range sets the int64 inputs of a py: model"),
            (["py:examples/conv_attention:make_model"], "is neither a .py file nor a dotted module name")):
        run = export(source_dir, work_dir, *args, *out)
        check(run.returncode == 2 and message in run.stderr, f"export_model.py {args}: exit {run.returncode}, {run.stderr}")
        check("Traceback" not in run.stderr, f"export_model.py {args} printed a traceback: {run.stderr}")


def check_baseline_bad_input(source_dir, work_dir):
    """python_baseline.py takes the same sources, and refuses them as export_model.py does (2)."""
    env = {**os.environ, "PYTHONPATH": os.path.join(source_dir, "tests", "cli", "own_code", "stub_torch")}
    for args, message in ((["py:tests/cli/own_code/missing.py:make_model"],
                           "tests/cli/own_code/missing.py:make_model: no such file "),
                          ([f"{BAD}:returns_int"], "bad_models.py:returns_int: returned a value of type int"),
                          ([f"{BAD}:good", "--input-range", "5,1"], "expected LO < HI")):
        run = subprocess.run([sys.executable, os.path.join(source_dir, "scripts", "python_baseline.py"), *args],
                             cwd=source_dir, env=env, capture_output=True, text=True)
        check(run.returncode == 2 and message in run.stderr,
              f"python_baseline.py {args}: exit {run.returncode}, {run.stderr}")


def suite_cases(path):
    with open(path, encoding="utf-8") as f:
        return {c["name"]: c for c in json.load(f)["cases"]}


def check_dry_run(source_dir, work_dir):
    """The suite written from a callable's examples: shapes, dtypes, int64 ranges (the example's, the
    callable's, --input-range's), the batch, and in mode train its own loss as loss mean."""
    out = os.path.join(work_dir, "good")
    run = export(source_dir, work_dir, f"{BAD}:good", "--batch", "2,4", "--format", "pt,pt2", "-o", out)
    check(run.returncode == 0, f"dry run of good: exit {run.returncode}, {run.stderr}")
    check("bad_models.py:good: note: input 1's values drawn from [5, 6), the example's" in run.stderr,
          f"the note on a range taken from the example: {run.stderr}")
    cases = suite_cases(os.path.join(out, "suite.json"))
    check(sorted(cases) == ["py-bad_models-good-b2-pt", "py-bad_models-good-b2-pt2", "py-bad_models-good-b4-pt",
                            "py-bad_models-good-b4-pt2"], f"cases {sorted(cases)}")
    b4 = cases.get("py-bad_models-good-b4-pt", {})
    check(b4.get("inputs") == [{"shape": [4, 3], "dtype": "float32"},
                               {"shape": [4], "dtype": "int64", "range": [5, 6], "batched": True}],
          f"inference inputs at batch 4: {b4.get('inputs')}")
    check("mode" not in b4 and "loss" not in b4, f"an inference case: {b4}")

    run = export(source_dir, work_dir, f"{BAD}:good", "--mode", "train", "--format", "pt", "--input-range", "1=0,100",
                 "-o", out, "--append")
    check(run.returncode == 0, f"dry run of good in mode train: exit {run.returncode}, {run.stderr}")
    train = suite_cases(os.path.join(out, "suite.json")).get("py-bad_models-good-b4-train-pt", {})
    check(train.get("inputs") == [{"shape": [4, 3], "dtype": "float32"},
                                  {"shape": [4], "dtype": "int64", "range": [0, 100], "batched": True},
                                  {"shape": [4], "dtype": "int64", "range": [0, 7], "batched": True}],
          f"a training case's inputs: the model's, then its loss's target: {train.get('inputs')}")
    check(train.get("mode") == "train" and train.get("loss") == "mean",
          f"its own loss, which the model-with-loss returns, is taken as loss mean: {train}")

    # The manifest beside the file names what python_baseline.py builds again.
    from graphbench.peers import baseline as python_baseline

    manifest = {name: case for name, case, _ in python_baseline.cases_from_suite(os.path.join(out, "suite.json"))}
    case = manifest.get("py-bad_models-good-b4-train-pt")
    check(case is not None and case.own_loss and case.origin_dir == source_dir and case.batch == 4 and
          case.inputs() == train.get("inputs"), f"the training case's manifest: {case}")
    check(manifest.get("py-bad_models-good-b2-pt") is not None and not manifest["py-bad_models-good-b2-pt"].own_loss,
          "an inference case's manifest has no loss of its own")

    # A callable without a batch keyword is made at its examples' batch; a module's callable too.
    run = export(source_dir, work_dir, f"{BAD}:no_batch", "py:tests.cli.own_code.bad_models:good", "--format", "pt",
                 "-o", os.path.join(work_dir, "more"))
    check(run.returncode == 0, f"dry run of no_batch and a module's good: exit {run.returncode}, {run.stderr}")
    cases = suite_cases(os.path.join(work_dir, "more", "suite.json"))
    check(sorted(cases) == ["py-bad_models-good-b4-pt", "py-bad_models-no_batch-b6-pt"],
          f"no_batch at its examples' batch 6, good at its default 4: {sorted(cases)}")

    # The callable's position: its input marked "position": true, not batched at batch 1.
    run = export(source_dir, work_dir, f"{BAD}:positioned", "--format", "pt", "-o", os.path.join(work_dir, "pos"))
    positioned = suite_cases(os.path.join(work_dir, "pos", "suite.json")).get("py-bad_models-positioned-b1-pt", {})
    check(run.returncode == 0 and positioned.get("inputs", [None, None])[1] ==
          {"shape": [1], "dtype": "int64", "range": [5, 6], "position": True},
          f"the position input: exit {run.returncode}, {positioned}, {run.stderr}")


def check_code_imports_the_package(source_dir, work_dir):
    """Your own code imports the package as `graphbench` (examples/tiny_decode.py's state_fill):
    export_model.py, run from a folder outside the checkout, has it loaded from python/graphbench,
    and a graphbench.py in your folder (which goes first on the path) does not take its place."""
    mine = os.path.join(work_dir, "mine")
    os.makedirs(mine)
    with open(os.path.join(mine, "graphbench.py"), "w", encoding="utf-8") as f:
        f.write('raise ImportError("the graphbench.py beside the user\'s code was imported, not the package")\n')
    with open(os.path.join(mine, "uses_package.py"), "w", encoding="utf-8") as f:
        f.write("import torch\n"
                "from graphbench.errors import BadInput\n"
                "from graphbench.models.state import state_fill\n\n\n"
                "class Same(torch.nn.Module):\n"
                "    def forward(self, x):\n"
                "        return x\n\n\n"
                "def make_model(batch=2):\n"
                "    assert BadInput.__module__ == 'graphbench.errors' and callable(state_fill)\n"
                "    return Same(), torch.zeros(batch, 3)\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(source_dir, "tests", "cli", "own_code", "stub_torch")}
    run = subprocess.run([sys.executable, os.path.join(source_dir, "scripts", "export_model.py"),
                          "py:mine/uses_package.py:make_model", "--format", "pt", "-o", "out", "--dry-run"],
                         cwd=work_dir, env=env, capture_output=True, text=True)
    check(run.returncode == 0 and os.path.exists(os.path.join(work_dir, "out", "suite.json")),
          f"a user's file importing graphbench.errors and graphbench.models.state, exported from {work_dir}: "
          f"exit {run.returncode}, {run.stderr}")


def main(source_dir, work_dir):
    source_dir = os.path.abspath(source_dir)
    from graphbench.models import own_code
    from graphbench.models import zoo as model_zoo

    fresh_dir(work_dir)
    check_parsing(own_code, model_zoo)
    check_bad_input(source_dir, work_dir)
    check_dry_run(source_dir, work_dir)
    check_baseline_bad_input(source_dir, work_dir)
    check_code_imports_the_package(source_dir, work_dir)
    return finish("check_own_code.py")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: check_own_code.py SOURCE_DIR WORK_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
