"""Models from the user's own Python code: the `py:` source of models/zoo.py.

    py:path/to/file.py:make_model       a function (or any callable) of a file
    py:package.module:make_model        ... of a module importable from the current directory

The callable (taking a `batch` keyword, or not) returns (model, inputs), (model, inputs, loss) or a
dict with keys model, inputs and optionally loss, targets, ranges, state, position
(docs/models.md, "Benchmark your own code"). Shapes and dtypes are recorded from its examples.
Parsing a source and the checks that need no import are plain Python; importing the code and
calling it need torch. Every error is a BadInput whose message starts with FILE:CALLABLE.
"""

import ast
import importlib.util
import inspect
import os
import re
import sys
import traceback
from dataclasses import dataclass

from ..errors import BadInput

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
DOTTED = re.compile(rf"{NAME}(\.{NAME})*\Z")
INPUT_DTYPES = ("float32", "float16", "bfloat16", "int64")  # what graphbench feeds a model
FORM = ("expected py:FILE.py:CALLABLE or py:MODULE:CALLABLE (e.g. py:examples/conv_attention.py:make_model, "
        "py:mypackage.models:make_model)")


@dataclass(frozen=True)
class PySource:
    """A parsed py: source: a file or a module, and the callable's name in it (OBJECT.NAME allowed)."""

    file: str = ""
    module: str = ""
    attribute: str = ""

    def label(self):
        return f"{self.file or self.module}:{self.attribute}"


def parse_source(model):
    """PySource of "py:TARGET:CALLABLE"; TARGET is a file when it ends in .py, else a dotted module."""
    prefix, sep, rest = model.partition(":")
    target, sep2, attribute = rest.rpartition(":")
    if prefix != "py" or not sep or not sep2 or not target or not attribute:
        raise BadInput(f"model {model!r}: {FORM}")
    if not DOTTED.match(attribute):
        raise BadInput(f"model {model!r}: {attribute!r} is not a Python name (expected CALLABLE or OBJECT.CALLABLE)")
    if target.endswith(".py"):
        return PySource(file=target, attribute=attribute)
    if DOTTED.match(target):
        return PySource(module=target, attribute=attribute)
    raise BadInput(f"model {model!r}: {target!r} is neither a .py file nor a dotted module name; {FORM}")


def parse_input_range(text):
    """--input-range [N=]LO,HI: (N or None for every int64 input, LO, HI) with LO < HI."""
    position, sep, bounds = text.rpartition("=")
    try:
        lo, hi = (int(v) for v in bounds.split(","))
        index = int(position) if sep else None
    except ValueError:
        raise BadInput(f"--input-range {text!r}: expected [N=]LO,HI (e.g. 0,1000, or 1=0,10 for input 1)")
    if index is not None and index < 0:
        raise BadInput(f"--input-range {text!r}: input position {index} is negative")
    if lo >= hi:
        raise BadInput(f"--input-range {text!r}: expected LO < HI (values are drawn from [LO, HI))")
    return index, lo, hi


# ---- checks before importing anything ----

def top_level_names(tree):
    """The names a module defines at its top level (inside if/try/with blocks too); None when a
    `from ... import *` makes them unknowable without running it."""
    names = set()
    blocks = [tree.body]
    while blocks:
        for node in blocks.pop():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if alias.name == "*":
                        return None
                    names.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                blocks += [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
                blocks += [h.body for h in getattr(node, "handlers", [])]
    return names


def user_folder_first(folder):
    """The user's folder first on Python's path, as Python puts a script's folder when it runs one, so
    that the user's file imports its neighbours (the package, imported before, is never found so)."""
    if folder not in sys.path:
        sys.path.insert(0, folder)


def module_origin(source, base_dir):
    """The file of source.module, found without running it (its packages' __init__ files may run)."""
    user_folder_first(base_dir)
    try:
        spec = importlib.util.find_spec(source.module)
    except (ImportError, ValueError):
        spec = None
    except Exception as e:  # noqa: BLE001 - a package's __init__ that raises
        raise BadInput(f"{source.label()}: importing the packages of {source.module} failed: {last_line(e)}")
    if spec is None:
        raise BadInput(f"{source.label()}: no such module {source.module!r} (looked in {base_dir} and Python's path)")
    return spec.origin if spec.origin and spec.origin.endswith(".py") else None


def check_source(source, base_dir):
    """The file's path, once what can be told without running the code holds: the file exists and
    parses, the module is found, and it defines the callable's name."""
    if source.file:
        path = source.file if os.path.isabs(source.file) else os.path.join(base_dir, source.file)
        if not os.path.exists(path):
            raise BadInput(f"{source.label()}: no such file {path}")
        if not os.path.isfile(path):
            raise BadInput(f"{source.label()}: {path} is not a file")
    else:
        path = module_origin(source, base_dir)
        if path is None:
            return None  # a compiled or namespace module: its names are known once imported
    try:
        with open(path, "r", encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except SyntaxError as e:
        raise BadInput(f"{source.label()}: {path} line {e.lineno}: SyntaxError: {e.msg}")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{source.label()}: cannot read {path} ({e})")
    names = top_level_names(tree)
    first = source.attribute.split(".")[0]
    if names is not None and first not in names:
        defined = sorted(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)))
        raise BadInput(f"{source.label()}: no such attribute {first!r} in {path} (it defines "
                       f"{', '.join(defined) if defined else 'no function or class'})")
    return path


# ---- importing and calling (runs the user's code) ----

def last_line(error):
    """The last line of an exception's traceback: "ValueError: the message"."""
    return traceback.format_exception_only(type(error), error)[-1].strip()


def load(source, base_dir):
    """The callable, after check_source: the file (its folder first on the path) or module imported."""
    path = check_source(source, base_dir)
    try:
        if source.file:
            folder = os.path.dirname(os.path.abspath(path))
            user_folder_first(folder)
            # Named for the whole path: two files of the same name are two modules.
            name = "graphbench_own_code_" + re.sub(r"\W", "_", os.path.splitext(os.path.abspath(path))[0])
            if name not in sys.modules:
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[name]
                    raise
            module = sys.modules[name]
        else:
            module = importlib.import_module(source.module)
    except Exception as e:  # noqa: BLE001 - whatever the user's code raises while it is imported
        raise BadInput(f"{source.label()}: importing {source.file or source.module} failed: {last_line(e)}")
    value = module
    for part in source.attribute.split("."):
        if not hasattr(value, part):
            raise BadInput(f"{source.label()}: no such attribute {part!r} in {getattr(value, '__name__', value)}")
        value = getattr(value, part)
    if not callable(value):
        raise BadInput(f"{source.label()}: is of type {type(value).__name__}, not a callable")
    return value


def batch_keyword(fn):
    """(whether fn takes a `batch` keyword, its default where that is a positive int, else None)."""
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False, None
    if "batch" in parameters:
        default = parameters["batch"].default
        return True, default if isinstance(default, int) and not isinstance(default, bool) and default > 0 else None
    return any(p.kind is p.VAR_KEYWORD for p in parameters.values()), None


def call(source, fn, batch):
    """fn(batch=batch), or fn() for batch None; BadInput with the last line of what it raised."""
    try:
        return fn() if batch is None else fn(batch=batch)
    except Exception as e:  # noqa: BLE001 - whatever the user's code raises
        args = "" if batch is None else f"batch={batch}"
        raise BadInput(f"{source.label()}: {source.attribute}({args}) raised {last_line(e)}")


@dataclass
class Made:
    """What the callable returned, checked."""

    model: object
    inputs: list
    loss: object = None
    targets: tuple = ()
    ranges: dict = None
    state: dict = None
    position: int = None


RETURNS = ("expected (model, inputs), (model, inputs, loss) or a dict with keys model, inputs and optionally "
           "loss, targets, ranges, state, position")


def tensors(source, value, what):
    """A tensor or a tuple or list of tensors, as a list; BadInput naming the first that is not one."""
    import torch

    items = [value] if isinstance(value, torch.Tensor) else value
    if not isinstance(items, (list, tuple)):
        raise BadInput(f"{source.label()}: its {what} are of type {type(value).__name__}, expected a tensor or a "
                       "tuple or list of tensors")
    for i, t in enumerate(items):
        if not isinstance(t, torch.Tensor):
            raise BadInput(f"{source.label()}: its {what[:-1]} {i} is of type {type(t).__name__}, expected a tensor "
                           "(graphbench feeds a model tensors only)")
        dtype = dtype_name(t)
        if dtype not in INPUT_DTYPES:
            raise BadInput(f"{source.label()}: its {what[:-1]} {i} is {dtype}, expected one of "
                           f"{', '.join(INPUT_DTYPES)} (what graphbench feeds)")
    return list(items)


def dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def unpack(source, result):
    """Made of what the callable returned; BadInput when it is not a model and inputs."""
    if isinstance(result, dict):
        unknown = sorted(set(result) - {"model", "inputs", "loss", "targets", "ranges", "state", "position"})
        if unknown or "model" not in result or "inputs" not in result:
            problem = f"unknown keys {unknown}" if unknown else "no key 'model' or 'inputs'"
            raise BadInput(f"{source.label()}: returned a dict with {problem}; {RETURNS}")
        parts = result
    elif isinstance(result, (tuple, list)) and len(result) in (2, 3):
        parts = dict(zip(("model", "inputs", "loss"), result))
    else:
        described = (f"a {type(result).__name__} of {len(result)}" if isinstance(result, (tuple, list))
                     else f"a value of type {type(result).__name__}")
        raise BadInput(f"{source.label()}: returned {described}; {RETURNS}")
    import torch

    model = parts["model"]
    if not isinstance(model, torch.nn.Module):
        raise BadInput(f"{source.label()}: returned a value of type {type(model).__name__} as the model, expected a "
                       "torch.nn.Module")
    inputs = tensors(source, parts["inputs"], "inputs")
    if not inputs:
        raise BadInput(f"{source.label()}: returned no inputs: forward needs at least one tensor")
    loss = parts.get("loss")
    if loss is not None and not callable(loss):
        raise BadInput(f"{source.label()}: returned a value of type {type(loss).__name__} as the loss, expected a "
                       "callable loss(output, *targets) -> scalar tensor")
    targets = tensors(source, parts.get("targets") or [], "targets")
    if targets and loss is None:
        raise BadInput(f"{source.label()}: returned targets but no loss to take them")
    ranges = parts.get("ranges") or {}
    if not isinstance(ranges, dict):
        raise BadInput(f"{source.label()}: ranges is of type {type(ranges).__name__}, expected {{position: (lo, hi)}}")
    state = check_state(source, parts.get("state") or {}, inputs)
    position = check_position(source, parts.get("position"), inputs)
    return Made(model, inputs, loss, tuple(targets), ranges, state, position)


def check_position(source, position, inputs):
    """The callable's position: the index of an int64 input of one element, or None."""
    if position is None:
        return None
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < len(inputs):
        raise BadInput(f"{source.label()}: position is {position!r}, expected an input's index, 0 to "
                       f"{len(inputs) - 1}")
    if dtype_name(inputs[position]) != "int64" or inputs[position].numel() != 1:
        raise BadInput(f"{source.label()}: position names input {position}, a {dtype_name(inputs[position])} tensor "
                       f"of shape {list(inputs[position].shape)}: expected an int64 tensor of one element (the step's "
                       "position in its KV cache)")
    return position


def check_state(source, state, inputs):
    """The callable's state: {position: {"seed": int, "scale": number}} of floating-point inputs."""
    if not isinstance(state, dict):
        raise BadInput(f"{source.label()}: state is of type {type(state).__name__}, expected "
                       "{position: {'seed': S, 'scale': X}}")
    out = {}
    for position, fill in state.items():
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < len(inputs):
            raise BadInput(f"{source.label()}: state has position {position!r}, expected 0 to {len(inputs) - 1} (an "
                           "input)")
        if not inputs[position].is_floating_point():
            raise BadInput(f"{source.label()}: state names input {position}, which is {dtype_name(inputs[position])}: "
                           "state is a floating-point tensor the step writes (a KV cache)")
        fill = fill or {}
        unknown = sorted(set(fill) - {"seed", "scale"}) if isinstance(fill, dict) else None
        seed, scale = (fill.get("seed", 0), fill.get("scale", 1.0)) if isinstance(fill, dict) else (None, None)
        if unknown or not isinstance(seed, int) or isinstance(seed, bool) or seed < 0 or \
                not isinstance(scale, (int, float)) or isinstance(scale, bool):
            raise BadInput(f"{source.label()}: state of input {position} is {fill!r}, expected {{'seed': S, 'scale': "
                           "X}} with S a non-negative integer and X a number")
        out[position] = {"seed": seed, "scale": float(scale)}
    return out


def check_loss(source, made):
    """One forward pass and the loss, which must be a scalar that depends on the parameters."""
    import torch

    made.model.train()
    with torch.enable_grad():
        try:
            output = made.model(*made.inputs)
        except Exception as e:  # noqa: BLE001 - whatever the user's model raises
            raise BadInput(f"{source.label()}: its model raised on its own inputs: {last_line(e)}")
        try:
            value = made.loss(output, *made.targets)
        except Exception as e:  # noqa: BLE001 - whatever the user's loss raises
            raise BadInput(f"{source.label()}: its loss raised {last_line(e)}")
    if not isinstance(value, torch.Tensor) or value.numel() != 1 or not value.is_floating_point():
        got = (f"a {dtype_name(value)} tensor of shape {list(value.shape)}" if isinstance(value, torch.Tensor)
               else f"a value of type {type(value).__name__}")
        raise BadInput(f"{source.label()}: its loss returned {got}, expected a scalar floating-point tensor "
                       "(one element)")
    if not value.requires_grad:
        raise BadInput(f"{source.label()}: its loss does not depend on the model's parameters (no gradient)")


def describe_inputs(source, tensors_, batch, ranges, cli_ranges, positions, state=None, position_input=None):
    """The suite's inputs of the example tensors: shape, dtype, the range of int64 ones, and
    "batched" where graphbench's default (two or more dimensions) would say otherwise. `ranges` may
    name any of `positions` (the inputs, then the targets); `position_input` is never batched."""
    for position in ranges:
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < positions:
            raise BadInput(f"{source.label()}: ranges has position {position!r}, expected 0 to {positions - 1} (the "
                           "inputs, then the targets)")
    for position in cli_ranges:
        if position is not None and position >= len(tensors_):
            raise BadInput(f"{source.label()}: --input-range names input {position}; the case has {len(tensors_)}")
    specs = []
    for i, t in enumerate(tensors_):
        spec = {"shape": list(t.shape), "dtype": dtype_name(t)}
        given = cli_ranges.get(i, cli_ranges.get(None)) if spec["dtype"] == "int64" else cli_ranges.get(i)
        if given is None:
            given = ranges.get(i)
        if spec["dtype"] == "int64":
            if given is None:
                given = (int(t.min()), int(t.max()) + 1) if t.numel() else (0, 1)
                print(f"{source.label()}: note: input {i}'s values drawn from [{given[0]}, {given[1]}), the example's "
                      "(give its range with --input-range or the callable's ranges)", file=sys.stderr)
            lo, hi = given
            if not (isinstance(lo, int) and isinstance(hi, int) and lo < hi):
                raise BadInput(f"{source.label()}: input {i}'s range {given!r}: expected (lo, hi) integers, lo < hi")
            spec["range"] = [lo, hi]
        elif given is not None:
            raise BadInput(f"{source.label()}: a range for input {i}, which is {spec['dtype']}: ranges are for int64 "
                           "inputs")
        batched = t.dim() >= 1 and t.shape[0] == batch and i != position_input
        if batched != (t.dim() >= 2):
            spec["batched"] = batched
        if state and i in state:
            spec.update({"role": "state", **state[i]})
        if i == position_input:
            spec["position"] = True
        specs.append(spec)
    return specs


def model_dtype(source, model):
    """The dtype of the model's first floating-point parameter (float32 for none)."""
    name = next((dtype_name(p) for p in model.parameters() if p.is_floating_point()), "float32")
    if name not in ("float32", "float16", "bfloat16"):
        raise BadInput(f"{source.label()}: its model's parameters are {name}, expected float32, float16 or bfloat16")
    return name


def with_loss(model, loss, input_count):
    """The model and its loss as one module: forward(*inputs, *targets) -> the scalar loss."""
    import torch

    class ModelWithLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model
            self.loss = loss  # a submodule when it is one (its buffers move with the model)

        def forward(self, *args):
            return self.loss(self.model(*args[:input_count]), *args[input_count:])

    return ModelWithLoss()
