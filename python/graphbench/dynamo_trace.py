"""A model traced by Dynamo (torch.compile's tracer) into one torch.fx graph that pieces.split can
cut, for the models torch.fx cannot trace (docs/models.md, "Models torch.fx cannot trace"):

    gm, breaks = trace(model, inputs)

Data-dependent shapes and `.item()` become graph nodes; a module whose forward still breaks the
graph is called through a custom op (Dynamo records one call) that becomes a call of the module
scripted by torch.jit.script, `breaks` saying why; an item assignment becomes an out-of-place write
(`set_item`), so that pieces never write each other's values. Each node's meta "gb_stack" comes from
Dynamo's nn_module_stack. Inference only.
"""

import contextlib
import re
import types

from .errors import BadInput, one_line
from .graph_breaks import _where
from .models.trace_fixes import patched

_OPAQUE = {}  # key: (module, [(shape, stride, dtype, device)] of its outputs, returns a tuple)
_OP = []


class DynamoTraceError(BadInput):
    """The model cannot be traced into one graph; the message says where and why."""


def set_item(tensor, index, value):
    """`tensor[index] = value` out of place: a copy of tensor, written."""
    out = tensor.clone()
    out[index] = value
    return out


def _opaque_op():
    """graphbench_split::opaque(key, args) -> outputs: the module registered under key, called on args;
    its fake implementation gives the outputs' shapes from the eager run (Dynamo does not trace in)."""
    if _OP:
        return _OP[0]
    import torch
    from torch import Tensor

    @torch.library.custom_op("graphbench_split::opaque", mutates_args=())
    def opaque(key: int, args: list[Tensor]) -> list[Tensor]:
        module = _OPAQUE[key][0]
        out = module._gb_forward(*args)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        # A custom op's outputs may not alias its inputs.
        return [o.clone() if any(o is a for a in args) else o for o in outs]

    @opaque.register_fake
    def _(key, args):
        return [torch.empty_strided(shape, stride, dtype=dtype, device=device)
                for shape, stride, dtype, device in _OPAQUE[key][1]]

    _OP.append(torch.ops.graphbench_split.opaque.default)
    return _OP[0]


def module_path(dynamo_path):
    """Dynamo's nn_module_stack path ("L['self'].blocks[0]._modules['mlp']") as a module path: blocks.0.mlp."""
    path = re.sub(r"^(L|G)\['[^']*'\]\.?", "", dynamo_path)
    path = re.sub(r"\._modules\['([^']*)'\]", r".\1", path)
    path = re.sub(r"^_modules\['([^']*)'\]", r"\1", path)
    path = re.sub(r"\[(\d+)\]", r".\1", path)
    path = re.sub(r"\['([^']*)'\]", r".\1", path)
    return path.strip(".")


def _break_site(model, frames):
    """([(module path, class name)] of the innermost module whose forward holds one of the frames (a
    break's user stack, outermost first; path "" for the model itself) or None, and "file:line"."""
    import inspect

    forwards = {}
    for path, m in model.named_modules():
        code = getattr(type(m).forward, "__code__", None)
        if code is None:
            continue
        try:
            lines, first = inspect.getsourcelines(type(m).forward)
        except (OSError, TypeError):
            continue
        forwards.setdefault((code.co_filename, first, first + len(lines)), []).append((path, type(m).__name__))
    for frame in reversed(frames):
        for (filename, first, end), owners in forwards.items():
            if frame.filename == filename and first <= frame.lineno < end:
                return owners, _where(frame.filename, frame.lineno)
    return None, _where(frames[-1].filename, frames[-1].lineno) if frames else "?"


def _record_outputs(model, inputs, paths):
    """{path: ([(shape, stride, dtype, device)], returns a tuple)} of the modules at paths, from one
    eager run (the first call of each)."""
    import torch

    seen = {}
    handles = []
    modules = dict(model.named_modules())
    for path in paths:
        def hook(m, args, out, path=path):
            if path in seen:
                return
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            if not all(isinstance(o, torch.Tensor) for o in outs):
                raise DynamoTraceError(f"module {path} ({type(m).__name__}) breaks the graph and returns something "
                                       "other than tensors: it cannot be made one piece")
            seen[path] = ([(tuple(o.shape), tuple(o.stride()), o.dtype, o.device) for o in outs],
                          isinstance(out, (tuple, list)))
        handles.append(modules[path].register_forward_hook(hook))
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for h in handles:
            h.remove()
    return seen


@contextlib.contextmanager
def _made_opaque(model, opaque):
    """While inside: each module at the paths of `opaque` is called through graphbench_split::opaque."""
    import torch

    modules = [(path, dict(model.named_modules())[path]) for path in opaque]
    op = _opaque_op()
    for key, (path, m) in enumerate(modules):
        outputs, as_tuple = opaque[path]
        _OPAQUE[key] = (m, outputs, as_tuple)
        m._gb_forward = m.forward

        def forward(self_, *args, key=key, as_tuple=as_tuple, path=path):
            if not all(isinstance(a, torch.Tensor) for a in args):
                raise DynamoTraceError(f"module {path} breaks the graph and takes arguments other than tensors: "
                                       "it cannot be made one piece")
            outs = op(key, list(args))
            return tuple(outs) if as_tuple else outs[0]

        m.forward = types.MethodType(forward, m)
    try:
        yield
    finally:
        for _, m in modules:
            del m.forward
            del m._gb_forward


def _configured():
    import torch._dynamo as dynamo

    return dynamo.config.patch(capture_scalar_outputs=True, capture_dynamic_output_shape_ops=True)


def trace(model, inputs, model_name="the model", max_rounds=8):
    """(GraphModule, {module path: why it runs eagerly}) of the model in eval mode: see the module's
    docstring. Raises DynamoTraceError (bad input) naming the source line where no split can help."""
    import torch
    import torch._dynamo as dynamo

    if model.training:
        raise DynamoTraceError(f"{model_name}: torch.fx cannot trace the model, and a training step in pieces needs "
                               "its trace: train it whole (without --scope), or make its forward traceable")
    opaque, breaks = {}, {}
    for _ in range(max_rounds):
        dynamo.reset()
        with _configured(), _made_opaque(model, opaque), torch.no_grad():
            explained = dynamo.explain(model)(*inputs)
        if not explained.break_reasons:
            break
        added = False
        for reason in explained.break_reasons:
            owners, where = _break_site(model, list(reason.user_stack))
            why = reason.reason.splitlines()[0]
            if why.startswith("generic_jump"):  # Dynamo's word for a jump on a value it cannot know
                why = f"a Python branch on a value read from a tensor ({why})"
            if owners is None or any(path == "" for path, _ in owners):
                raise DynamoTraceError(f"{model_name}: torch.compile breaks the graph in the model's own forward at "
                                       f"{where} ({why}): nothing around it can be captured from C++; move that code "
                                       "into a submodule (it then runs as one eager piece), or export the model "
                                       "whole (without --scope)")
            for path, cls in owners:
                if path in breaks and "data-dependent" in why and "data-dependent" not in breaks[path]:
                    # Dynamo gives several reasons for one break: the one that says why reads best.
                    breaks[path] = f"a graph break in {cls}.forward at {where} (torch.compile: {why})"
                if path not in opaque and not any(path.startswith(p + ".") for p in opaque):
                    opaque[path] = None
                    breaks[path] = f"a graph break in {cls}.forward at {where} (torch.compile: {why})"
                    added = True
        if not added:
            first = explained.break_reasons[0].reason.splitlines()[0]
            raise DynamoTraceError(f"{model_name}: torch.compile still breaks the graph ({first}) after making "
                                   f"{', '.join(opaque)} opaque")
        # A module inside one made opaque is inside its piece already.
        opaque = {p: None for p in opaque if not any(p.startswith(q + ".") for q in opaque if q != p)}
        opaque.update(_record_outputs(model, inputs, list(opaque)))
    else:
        raise DynamoTraceError(f"{model_name}: torch.compile breaks the graph in more than {max_rounds} rounds")

    graphs = []

    def backend(gm, example_inputs):
        graphs.append((gm, list(example_inputs)))
        return gm.forward

    dynamo.reset()
    try:
        with _configured(), _made_opaque(model, opaque), torch.no_grad():
            torch.compile(model, backend=backend, fullgraph=True)(*inputs)
    except Exception as e:  # noqa: BLE001 - Dynamo's own errors, said in one line
        raise DynamoTraceError(f"{model_name}: torch.compile cannot trace the model in one graph ({one_line(e)})"
                               + _default_breaks(model, inputs))
    finally:
        dynamo.reset()
    gm, examples = graphs[-1]
    return _as_module_graph(model, inputs, gm, examples, opaque, model_name), {p: breaks[p] for p in opaque}


def _default_breaks(model, inputs):
    """Where torch.compile by default breaks the graph (graph_breaks.py), said after a failed trace."""
    from . import graph_breaks

    try:
        breaks = graph_breaks.graph_breaks(model, inputs)
    except Exception as e:  # noqa: BLE001 - the listing is an aid; its own failure is said, not raised
        return f"; torch._dynamo.explain failed too ({type(e).__name__})"
    if not breaks:
        return ""
    return (f"; torch.compile's default graph breaks: {graph_breaks.describe(breaks)}: graphbench splits at "
            "breaks inside submodules only (a break in the model's own forward is not split yet): move that "
            "code into a submodule, or export the model whole (without --scope)")


def _as_module_graph(model, inputs, gm, examples, opaque, model_name):
    """Dynamo's graph rewritten for pieces.split: parameters and buffers as get_attr nodes of the
    module's own names, opaque calls as calls of the scripted modules, item assignments out of place."""
    import operator

    import torch
    import torch.fx as fx

    owned = {}
    for name, t in list(model.named_parameters()) + list(model.named_buffers()):
        owned.setdefault(id(t), name)
    attrs = {}
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    input_at = {id(t): i for i, t in enumerate(inputs)}
    new_inputs = [None] * len(inputs)
    first = next(n for n in graph.nodes if n.op != "placeholder")
    for node, example in zip(placeholders, examples):
        if id(example) in input_at:
            new_inputs[input_at[id(example)]] = node
            continue
        if id(example) in owned:
            target = owned[id(example)]
        elif isinstance(example, torch.Tensor):
            target = f"_gb_constant{len(attrs)}"
        else:
            raise DynamoTraceError(f"{model_name}: torch.compile's graph takes {node.name} "
                                   f"({type(example).__name__}), which is no input, parameter or buffer")
        attrs[target] = example
        with graph.inserting_before(first):
            attr = graph.create_node("get_attr", target)
        attr.meta = dict(node.meta)
        node.replace_all_uses_with(attr)
        graph.erase_node(node)
    if any(n is None for n in new_inputs):
        raise DynamoTraceError(f"{model_name}: torch.compile's graph does not take every input of the model (an "
                               "input that only decides Python control flow): split it with torch.fx, or export it "
                               "whole (without --scope)")
    for i, node in enumerate(new_inputs):
        with graph.inserting_before(first):
            ph = graph.placeholder(f"input{i}")
        ph.meta = dict(node.meta)
        node.replace_all_uses_with(ph)
        graph.erase_node(node)

    op = _OP[0] if _OP else None
    scripted = {}
    paths = list(opaque)
    for node in list(graph.nodes):
        stack = node.meta.get("nn_module_stack") or {}
        node.meta["gb_stack"] = [(module_path(path), getattr(cls, "__name__", str(cls)))
                                 for path, cls in stack.values()] if stack else []
        if op is not None and node.op == "call_function" and node.target is op:
            key, args = node.args
            path = paths[key]
            module = dict(model.named_modules())[path]
            if path not in scripted:
                try:
                    scripted[path] = torch.jit.script(module)
                except Exception as e:  # noqa: BLE001 - TorchScript's own errors, said in one line
                    raise DynamoTraceError(f"{model_name}: module {path} ({type(module).__name__}) breaks "
                                           "torch.compile's graph, and torch.jit.script cannot script it to run "
                                           f"from C++ ({type(e).__name__}: {str(e).splitlines()[0]})")
            attrs[path] = scripted[path]
            with graph.inserting_before(node):
                call = graph.create_node("call_module", path, tuple(args))
            call.meta = dict(node.meta)
            call.meta["gb_stack"] = node.meta["gb_stack"] + [(path, type(module).__name__)]
            as_tuple = opaque[path][1]
            for user in list(node.users):
                if not as_tuple and user.op == "call_function" and user.target is operator.getitem:
                    user.replace_all_uses_with(call)
                    graph.erase_node(user)
            node.replace_all_uses_with(call)
            graph.erase_node(node)
        elif node.op == "call_function" and node.target is operator.setitem:
            target, index, value = node.args
            with graph.inserting_after(node):
                written = graph.call_function(set_item, (target, index, value))
            written.meta = dict(node.meta)
            nodes = list(graph.nodes)
            for later in nodes[nodes.index(written) + 1:]:
                later.replace_input_with(target, written)
            graph.erase_node(node)
    out = fx.GraphModule(_root(attrs), graph)
    out.graph.lint()
    return out


def _root(attrs):
    """What fx.GraphModule copies its attributes from: a module holding each at its dotted name."""
    import torch.nn as nn

    root = nn.Module()
    for name, value in attrs.items():
        _set_path(root, name, value)
    return root


def _set_path(root, name, value):
    import torch.nn as nn

    *parents, leaf = name.split(".")
    m = root
    for p in parents:
        if not hasattr(m, p):
            m.add_module(p, nn.Module())
        m = getattr(m, p)
    if isinstance(value, nn.Module):  # a torch.jit.ScriptModule too
        m.add_module(leaf, value)
    elif isinstance(value, nn.Parameter):
        m.register_parameter(leaf, value)
    else:
        m.register_buffer(leaf, value)


def scripted_modules(model, paths):
    """While inside: the modules at `paths` replaced in the model by torch.jit.script of themselves,
    so that torch.jit.trace of the whole model keeps their control flow as its pieces do."""
    import torch

    targets = []
    for path in paths:
        parent_path, _, name = path.rpartition(".")
        parent = model.get_submodule(parent_path) if parent_path else model
        targets.append((parent, name, torch.jit.script(getattr(parent, name))))
    return patched(targets)
