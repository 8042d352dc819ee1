"""A model split into pieces at the boundaries of a capture scope (docs/models.md, "Splitting a
model into pieces", says where each scope cuts): what export_model.py --scope writes as one file per
piece, and what python_baseline.py --scope captures piece by piece.

    s = split(model, inputs, parse_scopes("layer"))
    outputs = run_chain([p.module for p in s.pieces], [p.inputs for p in s.pieces], s.outputs, inputs)

The model is traced by torch.fx (a Tracer that records the module path of every node), or where
torch.fx cannot follow it by torch.compile's tracer into one graph of the same form
(dynamo_trace.py). Each node gets a key from the scope; the nodes in graph order form runs of equal
keys, and each run is a piece, so the pieces are a chain in the model's own order with no cycle.
Values that are not tensors (sizes) are computed again in every piece that needs them; parameters
are read by the piece that uses them. Each piece's tag is graphbench's OpTag: its module path,
layer (-1 when mixed), attention, capturable.
"""

import contextlib
import itertools
import os
import re
from dataclasses import dataclass, field

from .errors import BadInput, arg_type, one_line
from .models.trace_fixes import patched

SCOPES = ("layer", "attention-out", "auto", "modules=REGEX")  # the scopes that split a model
# graphbench's capture scopes, as core/workload/capture_scope.cpp names them; a scope that cuts the step
# into graphs may end in POOL_EACH (a memory pool per graph).
CAPTURE_SCOPES = ("full", "layer", "attention-out", "modules=REGEX", "auto", "fwd-bwd")
POOL_EACH = ":pool-each"


class BadScope(BadInput):
    """A scope that cannot be read, or a model that cannot be split; the message says why."""


@dataclass
class Scope:
    kind: str  # full, layer, attention-out, modules, auto, fwd-bwd
    regex: str = ""
    pool_each: bool = False

    def text(self):
        """The scope as graphbench writes it (CaptureScope::to_string)."""
        return (f"modules={self.regex}" if self.kind == "modules" else self.kind) + (POOL_EACH if self.pool_each else "")

    def slug(self):
        """The scope in a file name: modules=... becomes modules-<the regex's letters and digits>."""
        if self.kind != "modules":
            return self.kind
        letters = re.sub(r"[^A-Za-z0-9]+", "-", self.regex).strip("-")[:40]
        return f"modules-{letters}" if letters else "modules"


def parse_capture_scope(text):
    """graphbench's scope grammar, read as C++'s parse_capture_scope (core/workload/capture_scope.cpp)
    reads it (tests/golden/segments.json's "grammar" holds both to it). Raises BadScope."""
    if text.endswith(POOL_EACH) and len(text) > len(POOL_EACH):
        scope = _parse_scope_kind(text[:-len(POOL_EACH)], text)
        if scope.kind == "full":
            raise BadScope(f"scope {text!r}: the full scope captures one graph, so it has one pool; {POOL_EACH!r} "
                           "applies to the scopes that cut the step into graphs")
        scope.pool_each = True
        return scope
    return _parse_scope_kind(text, text)


def _parse_scope_kind(text, whole):
    if text in ("full", "layer", "attention-out", "auto", "fwd-bwd"):
        return Scope(text)
    if text.startswith("modules="):
        regex = text[len("modules="):]
        if not regex:
            raise BadScope(f"scope {whole!r} names no modules: expected modules=REGEX, e.g. modules=self_attn|mlp")
        try:
            re.compile(regex)
        except re.error as e:
            raise BadScope(f"scope {whole!r}: the modules regex does not compile ({e})")
        return Scope("modules", regex)
    raise BadScope(f"unknown capture scope {whole!r}: expected one of {', '.join(CAPTURE_SCOPES)} (a segmented scope "
                   f"may end in {POOL_EACH})")


def parse_scope(text):
    """A scope that splits a model (--scope): graphbench's grammar, less the scopes that cut nothing."""
    try:
        scope = parse_capture_scope(text)
    except BadScope as e:
        if str(e).startswith("unknown capture scope"):
            raise BadScope(f"--scope {text!r}: expected one of {', '.join(SCOPES)}, or several, comma-separated")
        raise BadScope(f"--scope: {e}")
    if scope.kind == "full":
        raise BadScope("--scope full is the whole model, one file: leave --scope out")
    if scope.kind == "fwd-bwd":
        raise BadScope("--scope fwd-bwd captures a training step's forward and backward, the optimizer eager: the "
                       "whole model's case runs it (graphbench run --sweep scope=full,fwd-bwd); no split needed")
    if scope.pool_each:
        raise BadScope(f"--scope {text}: {POOL_EACH} says how graphbench pools the graphs, not where the model is "
                       f"cut: split at {scope.text()[:-len(POOL_EACH)]} and sweep scope={text} in graphbench")
    return scope


def parse_scopes(text):
    """One scope or several, comma-separated ("layer,attention-out"): one chain of pieces serves them all."""
    scopes = [parse_scope(part) for part in text.split(",")]
    kinds = [s.kind for s in scopes]
    if len(set(kinds)) != len(kinds):
        raise BadScope(f"--scope {text}: a scope named twice")
    return scopes


def scope_arg(text):
    """--scope of export_model.py and python_baseline.py: parse_scopes, an argparse error when bad."""
    return arg_type(parse_scopes)(text)


def scopes_text(scopes):
    return ",".join(s.text() for s in scopes)


def scopes_slug(scopes):
    return "+".join(s.slug() for s in scopes)


@dataclass
class Piece:
    module: object  # a torch.fx.GraphModule returning a tuple of tensors
    inputs: list  # refs: "input<K>" (a model input) or "piece<J>.out<N>" (J earlier)
    outputs: int = 0
    tag: dict = field(default_factory=dict)  # module, layer, attention, capturable, reason


@dataclass
class Split:
    pieces: list
    outputs: list  # the model's outputs, flattened, as refs
    breaks: dict = field(default_factory=dict)  # {module path: why}: modules run whole, eagerly (dynamo_trace)
    capturability: str = "list"  # "device": the ops that synchronize found on the GPU (capture_probe.py)


# ---- tracing ----

ATTENTION_CLASS = re.compile(r"attention|attn", re.IGNORECASE)
ATTENTION_NAME = re.compile(r"(^|_)(attn|attention)$|^self_attn$|^attn$", re.IGNORECASE)
# Calls whose result's shape depends on the data, and host reads: the auto scope runs them eagerly.
DATA_DEPENDENT = {"nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "bincount",
                  "repeat_interleave", "nonzero_static"}
HOST_READS = {"item", "tolist", "__bool__", "__int__", "__float__"}
# Writes of data-dependent rows into a tensor of fixed shape: the result's shape is self's again.
SCATTERS = {"index_add", "index_add_", "index_copy", "index_copy_", "scatter", "scatter_", "scatter_add",
            "scatter_add_", "index_put", "index_put_", "scatter_reduce", "scatter_reduce_",
            "set_item"}  # set_item: an item assignment made out of place (dynamo_trace.py)


def dynamo_available():
    """Whether this PyTorch has torch.compile's tracer with what dynamo_trace.py uses (custom ops)."""
    import torch

    return hasattr(torch, "library") and hasattr(torch.library, "custom_op") and hasattr(torch, "_dynamo")


def op_name(node):
    if node.op == "call_method":
        return node.target
    if node.op == "call_function":
        return getattr(node.target, "__name__", str(node.target))
    return ""


def trace(model, input_count=None, decide=None):
    """The model as a torch.fx GraphModule whose nodes know their module stack (meta "gb_stack":
    [(path, class name), ...], outermost first). `decide(proxy)`, where given, answers each Python
    branch on a traced value (branches.py); without it such a branch fails the trace."""
    import torch.fx as fx

    class PathTracer(fx.Tracer):
        def __init__(self):
            super().__init__()
            self.stack = []
            # Buffers read as nodes, not as the values they hold now: a KV cache that forward
            # writes must not be folded into a constant.
            self.proxy_buffer_attributes = True

        def call_module(self, m, forward, args, kwargs):
            self.stack.append((self.path_of_module(m), type(m).__name__))
            try:
                return super().call_module(m, forward, args, kwargs)
            finally:
                self.stack.pop()

        def create_node(self, *args, **kwargs):
            node = super().create_node(*args, **kwargs)
            node.meta["gb_stack"] = list(self.stack)
            return node

        def to_bool(self, obj):
            return decide(obj) if decide is not None else super().to_bool(obj)

    tracer = PathTracer()
    with _unpacking_fixed(), _named_arguments(model, input_count):
        graph = tracer.trace(model)
    return fx.GraphModule(model, graph)


def _named_arguments(model, count):
    """A forward(*args) (a model with its own loss, own_code.with_loss) seen by torch.fx as
    forward(input0, ..., inputN-1): torch.fx before 2.0 cannot trace *args on Python 3.11. The
    model's class is swapped for a subclass with that forward while tracing, its module paths
    unchanged."""
    import inspect

    saved = type(model)
    kinds = [p.kind for p in inspect.signature(saved.forward).parameters.values()]
    if count is None or inspect.Parameter.VAR_POSITIONAL not in kinds:
        return contextlib.nullcontext()
    names = ", ".join(f"input{i}" for i in range(count))
    namespace = {"original": saved.forward}
    exec(f"def forward(self, {names}):\n    return original(self, {names})\n", namespace)  # noqa: S102
    return patched([(model, "__class__", type(saved.__name__, (saved,), {"forward": namespace["forward"]}))])


def _unpacking_fixed():
    """torch.fx before 2.0 finds the instruction that unpacks a traced value (`q, k, v = t.unbind(0)`)
    by an index that Python 3.11's inline caches put off: find it by its offset instead."""
    import torch
    import torch.fx.proxy as proxy

    if int(torch.__version__.split(".")[0]) >= 2:
        return contextlib.nullcontext()

    def iterate(value):
        import dis
        import inspect

        frame = inspect.currentframe().f_back
        inst = next((i for i in dis.get_instructions(frame.f_code) if i.offset == frame.f_lasti), None)
        if inst is not None and inst.opname == "UNPACK_SEQUENCE":
            return (value[i] for i in range(inst.argval))
        return value.tracer.iter(value)

    return patched([(proxy.Proxy, "__iter__", iterate)])


def record_values(gm, inputs):
    """Runs the traced model once: ({node: its value}, its result)."""
    import torch.fx as fx

    values = {}

    class Recorder(fx.Interpreter):
        def run_node(self, n):
            values[n] = super().run_node(n)
            return values[n]

    import torch

    with torch.no_grad():
        result = Recorder(gm).run(*inputs)
    return values, result


def repeated_blocks(model):
    """{module path: block index}: torchvision's stages (layer1, layer2, ...), or the children of the
    container of two or more modules of one (not torch.nn) class holding the most parameters."""
    import torch.nn as nn

    stages = [(int(name[5:]), name) for name, _ in model.named_children() if re.fullmatch(r"layer\d+", name)]
    if len(stages) >= 2:
        return {name: i for i, (_, name) in enumerate(sorted(stages))}
    best, best_params = None, -1
    for path, m in model.named_modules():
        if not isinstance(m, (nn.ModuleList, nn.Sequential)):
            continue
        children = list(m.named_children())
        classes = {type(c) for _, c in children}
        if len(children) < 2 or len(classes) != 1 or next(iter(classes)).__module__.startswith("torch.nn"):
            continue
        params = sum(p.numel() for p in m.parameters())
        if params > best_params:
            best, best_params = [f"{path}.{name}" if path else name for name, _ in children], params
    return {name: i for i, name in enumerate(best or [])}


def node_path(node):
    stack = node.meta.get("gb_stack", [])
    return stack[-1][0] if stack else ""


def node_layer(node, blocks):
    return next((blocks[path] for path, _ in node.meta.get("gb_stack", []) if path in blocks), -1)


def node_attention(node):
    if op_name(node) in ("scaled_dot_product_attention", "multi_head_attention_forward"):
        return True
    return any(ATTENTION_CLASS.search(cls) or ATTENTION_NAME.search(path.rsplit(".", 1)[-1])
               for path, cls in node.meta.get("gb_stack", []))


def uncapturable(gm, values, breaks=None, synced=None):
    """{node: why} for the nodes the auto scope runs eagerly: those that make a data-dependent shape
    or read the host, and those that take a value of data-dependent shape, up to a scatter into, or a
    gather by an integer index of, fixed shape (`table(uniq)[inverse]`). `breaks`: the modules that
    break torch.compile's graph (dynamo_trace.py), eager and whole. `synced`: the nodes that
    synchronized on the device (capture_probe.py), which, where given, decide instead of the lists."""
    breaks = breaks or {}
    why = {}
    varying = {}  # node: why its value's shape depends on the data
    for node in (n for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")):
        name = op_name(node) or str(node.target)
        args = [a for a in _flatten_nodes(list(node.args) + list(node.kwargs.values())) if a in varying]
        listed = _listed_reason(node, name, values)
        if node.op == "call_module" and node.target in breaks:
            why[node] = breaks[node.target]
        elif synced is not None and node in synced:
            why[node] = f"{listed or f'an op that synchronizes ({name})'}, found on the device: {synced[node]}"
            host_read = not _is_tensors(values.get(node)) or name in HOST_READS
            if not (host_read or name in SCATTERS or _fixed_gather(node, name, values, varying)):
                varying[node] = why[node]
        elif synced is None and listed:
            why[node] = listed
            if name not in HOST_READS:
                varying[node] = listed
        elif args:
            why[node] = varying[args[0]]
            fixed = (name in SCATTERS and node.args and node.args[0] not in varying) or \
                _fixed_gather(node, name, values, varying)
            if not fixed:
                varying[node] = why[node]
    return why


def _listed_reason(node, name, values):
    """Why graphbench's lists say the node cannot be captured, or None."""
    if name in HOST_READS:
        return f"a host read ({name})"
    if _makes_data_dependent_shape(node, name, values):
        return f"a data-dependent shape ({name})"
    if name == "getitem" and len(node.args) == 2 and _is_tensor(values.get(node.args[0])) and \
            _has_mask(node.args[1], values):
        return "a data-dependent shape (a boolean mask as an index)"
    return None


def _fixed_gather(node, name, values, varying):
    """Whether the node indexes a tensor along its first dimension by an integer tensor of fixed shape
    (`rows[inverse]`, `rows.index_select(0, index)`): its result's shape is fixed however many rows."""
    import torch

    if name == "getitem" and len(node.args) == 2 and _inverse_of_unique(node):
        return True  # unique's inverse indices: the shape of unique's input
    if name == "getitem" and len(node.args) == 2:
        index = node.args[1]
    elif name == "index_select" and len(node.args) == 3 and node.args[1] == 0:
        index = node.args[2]
    else:
        return False
    value = values.get(index) if hasattr(index, "op") else None
    return isinstance(value, torch.Tensor) and not value.is_floating_point() and value.dtype != torch.bool and \
        index not in varying


def _inverse_of_unique(node):
    """Whether the node is the inverse indices of a torch.unique(return_inverse=True): the input's shape."""
    source, index = node.args
    if index != 1 or not hasattr(source, "op") or op_name(source) not in ("unique", "unique_consecutive", "_unique2"):
        return False
    return bool(source.kwargs.get("return_inverse", source.args[2] if len(source.args) > 2 else False))


def _makes_data_dependent_shape(node, name, values):
    """Whether the node's result has a shape that depends on tensor values: the DATA_DEPENDENT calls,
    one-argument where, and repeat_interleave by a tensor (not by a count, as grouped-query attention's)."""
    if name == "where":
        return len(node.args) == 1
    if name == "repeat_interleave":
        positional = list(node.args)
        if node.op == "call_function" and len(positional) == 1 and "repeats" not in node.kwargs:
            return True  # repeat_interleave(repeats): the counts are the tensor
        repeats = node.kwargs.get("repeats", positional[1] if len(positional) > 1 else None)
        return hasattr(repeats, "op") and _is_tensor(values.get(repeats))
    return name in DATA_DEPENDENT


def _has_mask(index, values):
    import torch

    items = index if isinstance(index, (tuple, list)) else [index]
    return any(hasattr(item, "op") and isinstance(values.get(item), torch.Tensor) and values[item].dtype == torch.bool
               for item in items)


# ---- splitting ----

def _is_tensor(value):
    import torch

    return isinstance(value, torch.Tensor)


def _is_tensors(value):
    return _is_tensor(value) or (isinstance(value, (tuple, list)) and value and all(_is_tensor(v) for v in value))


def _common_prefix(paths):
    return ".".join(os.path.commonprefix([p.split(".") if p else [] for p in paths]))


def node_key(node, scope, blocks, why):
    if scope.kind == "layer":
        return node_layer(node, blocks)
    if scope.kind == "attention-out":
        return node_attention(node)
    if scope.kind == "auto":
        return node in why
    return _outermost_match(node_path(node), scope.regex)


def _outermost_match(path, regex):
    atoms = path.split(".") if path else []
    prefixes = itertools.accumulate(atoms, lambda a, b: f"{a}.{b}")  # outermost first
    return next((prefix for prefix in prefixes if re.search(regex, prefix)), None)


def split(model, inputs, scopes, model_name="the model"):
    """The model (in the mode it is in) split at the boundaries of every scope of the list `scopes`.
    Raises BadScope where no tracer can trace it or a piece would pass another a non-tensor."""
    import torch.fx as fx

    text = scopes_text(scopes)

    breaks = {}  # {module path: why}: modules that break torch.compile's graph, each one eager piece
    try:
        gm = trace(model, len(inputs))
    except Exception as e:  # noqa: BLE001 - fx cannot trace data-dependent Python control flow, and more
        fx_failed = f"torch.fx cannot trace the model ({one_line(e)})"
        if not dynamo_available():
            raise BadScope(f"{model_name}: {fx_failed}; export it whole (without --scope) or make its forward "
                           "traceable (with PyTorch 2.4 or later, torch.compile's tracer is tried too)")
        from . import dynamo_trace

        try:
            gm, breaks = dynamo_trace.trace(model, list(inputs), model_name)
        except dynamo_trace.DynamoTraceError as d:
            raise BadScope(f"{fx_failed}; {d}")
    values, _ = record_values(gm, inputs)
    from . import capture_probe

    synced = capture_probe.probe(gm, inputs)  # None without a GPU: the lists decide
    blocks = repeated_blocks(model)  # every piece's tag names its layer
    if "layer" in [s.kind for s in scopes] and not blocks:
        raise BadScope(f"{model_name}: no repeated block found for --scope layer (torchvision's layer1..layerN, or a "
                       "ModuleList or Sequential of two or more modules of one class)")
    why = uncapturable(gm, values, breaks, synced)
    # {node: key} for the nodes that compute, a key per scope; equal keys in a row make one piece.
    keys = {node: tuple(node_key(node, scope, blocks, why) for scope in scopes) for node in gm.graph.nodes
            if node.op in ("call_function", "call_method", "call_module")}
    # Runs over the nodes whose values are tensors; other values are recomputed where needed.
    tensor_nodes = [n for n in gm.graph.nodes if n in keys and _is_tensors(values.get(n))]
    runs = [list(run) for _, run in itertools.groupby(tensor_nodes, key=keys.get)]
    run_of = {node: p for p, run in enumerate(runs) for node in run}
    if len(runs) < 2:
        raise BadScope(f"{model_name}: --scope {text} leaves the model in one piece (nothing to split: "
                       f"{'; '.join(_nothing_to_split(s) for s in scopes)})")

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    input_ref = {n: f"input{i}" for i, n in enumerate(placeholders)}
    graphs = [fx.Graph() for _ in runs]
    envs = [{} for _ in runs]
    piece_inputs = [[] for _ in runs]  # (ref, placeholder)
    piece_outputs = [[] for _ in runs]  # nodes of the original graph

    def ref_of(node):
        if node in input_ref:
            return input_ref[node]
        p = run_of[node]
        if node not in piece_outputs[p]:
            piece_outputs[p].append(node)
        return f"piece{p}.out{piece_outputs[p].index(node)}"

    def value_in(p, node):
        """`node`'s value inside piece p: copied there, an input of it, or recomputed in it."""
        env = envs[p]
        if node in env:
            return env[node]
        if node in input_ref or (node in run_of and run_of[node] < p):
            if not _is_tensor(values.get(node)):
                raise BadScope(f"{model_name}: --scope {text}: node {node.name} "
                               f"({type(values.get(node)).__name__}) would pass from one piece to another; only "
                               "tensors can")
            piece_inputs[p].append(ref_of(node))
            env[node] = graphs[p].placeholder(f"in{len(piece_inputs[p]) - 1}")
            return env[node]
        # A parameter, or a value that is not a tensor (a size): computed again in this piece.
        env[node] = graphs[p].node_copy(node, lambda a: value_in(p, a))
        return env[node]

    for p, run in enumerate(runs):
        for node in run:
            envs[p][node] = graphs[p].node_copy(node, lambda a, p=p: value_in(p, a))

    output_node = next(n for n in gm.graph.nodes if n.op == "output")
    model_outputs = []
    for node in _flatten_nodes(output_node.args[0]):
        if node not in run_of:
            raise BadScope(f"{model_name}: output {node.name} is no piece's tensor (a model input passed through, or "
                           "a value that is not a tensor)")
        if not _is_tensor(values.get(node)):
            raise BadScope(f"{model_name}: output {node.name} is not a tensor")
        model_outputs.append(ref_of(node))

    pieces = []
    for p, run in enumerate(runs):
        graphs[p].output(tuple(envs[p][n] for n in piece_outputs[p]))
        module = fx.GraphModule(gm, graphs[p], class_name=f"Piece{p}")
        tag = _tag(run, blocks, why)
        for i, scope in enumerate(scopes):
            if scope.kind != "modules":
                continue
            # The module graphbench's modules= scope matches: the outermost match, or for the
            # pieces between, a path that does not match.
            key = keys[run[0]][i]
            tag["module"] = key if key is not None else ("" if re.search(scope.regex, tag["module"]) else
                                                         tag["module"])
        pieces.append(Piece(module=module, inputs=piece_inputs[p], outputs=len(piece_outputs[p]), tag=tag))
    return Split(pieces=pieces, outputs=model_outputs, breaks=breaks,
                 capturability="list" if synced is None else "device")


def check_params_apart(split, model_name="the model"):
    """BadScope where a parameter is read by two training pieces: each piece's file holds its own, so
    tied weights would train apart."""
    owner = {}
    for k, piece in enumerate(split.pieces):
        for name, p in piece.module.named_parameters():
            first = owner.setdefault(id(p), (k, name))
            if first[0] != k:
                raise BadScope(f"{model_name}: parameter {first[1]} is read by piece {first[0]} and piece {k}: in "
                               "mode train each parameter must lie in one piece (tied weights would train apart); "
                               "export it whole (without --scope)")


def _nothing_to_split(scope):
    return {"layer": "one block", "attention-out": "no attention module or call found",
            "auto": "every op can be captured", "modules": f"no module path matches {scope.regex!r}, or all do"}[
        scope.kind]


def _flatten_nodes(arg):
    if isinstance(arg, (tuple, list)):
        return [n for a in arg for n in _flatten_nodes(a)]
    if isinstance(arg, dict):
        return [n for a in arg.values() for n in _flatten_nodes(a)]
    return [arg] if hasattr(arg, "op") else []


def _tag(run, blocks, why):
    layers = {node_layer(n, blocks) for n in run} if blocks else {-1}
    reasons = [why[n] for n in run if n in why]
    tag = {"module": _common_prefix([node_path(n) for n in run]),
           "layer": layers.pop() if len(layers) == 1 else -1,
           "attention": all(node_attention(n) for n in run),
           "capturable": not reasons}
    if reasons:
        tag["reason"] = reasons[0]
    return tag


# ---- running ----

def resolve(ref, inputs, outputs):
    """A ref's tensor: "inputK" from the model's inputs, "pieceJ.outN" from piece J's outputs."""
    m = re.fullmatch(r"input(\d+)", ref)
    if m:
        return inputs[int(m.group(1))]
    m = re.fullmatch(r"piece(\d+)\.out(\d+)", ref)
    return outputs[int(m.group(1))][int(m.group(2))]


def run_chain(calls, wiring, model_outputs, inputs):
    """Calls each piece (calls[k], wiring[k] its input refs) in order; the model's outputs."""
    outputs = []
    for call, refs in zip(calls, wiring):
        result = call(*[resolve(r, inputs, outputs) for r in refs])
        outputs.append(tuple(result) if isinstance(result, (tuple, list)) else (result,))
    return [resolve(r, inputs, outputs) for r in model_outputs]


def piece_plan(scope, tag):
    """(captured, must run eagerly, group) of a piece, from its tag, as plan_by_scope (engine/plan/segments.cpp)."""
    if scope.kind == "layer":
        return tag.get("layer", -1) >= 0, False, tag.get("layer", -1)
    if scope.kind == "attention-out":
        return not tag.get("attention", False), tag.get("attention", False), 0
    if scope.kind == "modules":
        module = tag.get("module", "")
        return bool(module) and re.search(scope.regex, module) is not None, False, 0
    if scope.kind == "auto":
        return tag.get("capturable", True), not tag.get("capturable", True), 0
    raise BadScope(f"--scope {scope.text()}: no segment rule for it")


def segments(tags, scope, train=False):
    """[(captured, [piece indices])] in order, as graphbench's split_into_segments cuts them
    (docs/scopes.md, Segments; tests/golden/segments.json): each maximal run of captured pieces of
    one group is a graph, adjacent eager pieces one segment. With train, where the scope captures
    some: all captured, or all eager where one must run eagerly (autograd ties them to the backward)."""
    plan = [piece_plan(scope, tag) for tag in tags]
    if train and any(p[0] for p in plan) and not all(p[0] for p in plan):
        must = any(p[1] for p in plan)
        plan = [(not must, m, g) for _, m, g in plan]
    out = []
    for k, (captured, _, group) in enumerate(plan):
        if not out or out[-1][0] != captured or (captured and group != plan[k - 1][2]):
            out.append((captured, []))
        out[-1][1].append(k)
    return out
