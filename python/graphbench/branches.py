"""A model whose own forward branches on a value it computed (`if t.item() > c: break`, an early
exit or an if/else), split at its branches: pieces between them and a tree of decisions that
graphbench runs from C++ (workload torchscript_branches, docs/control-flow.md).

    tree = split(model, inputs, "early_exit")   # None where the forward has no such branch
    outputs, path = run_tree(tree.nodes, calls, inputs)

torch.fx traces one path per trace, answering each branch itself (pieces.trace's `decide`): every
"else" first, then each branch met the other way, depth first, up to MAX_PATHS paths. A branch
must compare `.item()` with a number in the model's own forward; any other leaves the model to the
other tracers.
"""

import inspect
import operator
from dataclasses import dataclass, field

from .pieces import BadScope, Piece, _flatten_nodes as _flat, _is_tensor, _is_tensors, _tag, record_values, \
    repeated_blocks, resolve, trace, uncapturable

MAX_PATHS = 64  # paths through the branches traced before the model is refused
MAX_DECISIONS = 32  # branches on one path: past it, a loop the data end (`while x.item() > t`) is refused
COMPARE = {operator.gt: ">", operator.ge: ">=", operator.lt: "<", operator.le: "<="}
FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">="}  # `c < x` is `x > c`


class NotOwnBranches(Exception):
    """The forward cannot be split at its branches here (the reason says why); the other tracers may."""


@dataclass
class Decision:
    value: str  # the node of the one-element tensor read on the host
    compare: str
    than: float
    line: str  # "examples/early_exit.py:42 `if ...`"


@dataclass
class Path:
    outcomes: tuple  # True: "then", per decision met
    gm: object  # the path's straight-line GraphModule
    decisions: list  # [Decision] in order
    ends: list  # ends[i]: index in gm's node list of decision i's comparison


@dataclass
class Branches:
    pieces: list  # [Piece]: one per stretch of ops between branches that holds any
    nodes: list  # the tree, root first, a node's children after it: {"run": [K], "outputs": [refs]} (a leaf)
    # or {"run": [K], "value": ref, "compare": ">", "than": 0.5, "line": "...", "then": J, "else": J}
    paths: list = field(default_factory=list)  # [Path]


def split(model, inputs, model_name="the model"):
    """The model split at the branches of its own forward, or None where it has none (or one of
    another form, or torch.fx cannot trace it). Raises BadScope where they make too many paths."""
    try:
        first = _trace_path(model, len(inputs), (), model_name)
    except NotOwnBranches:
        return None
    if not first.decisions:
        return None
    paths = [first]
    _explore(model, len(inputs), first, 0, paths, model_name)
    return _Cutter(model, inputs, paths, model_name).cut()


def _explore(model, count, path, forced, paths, model_name):
    """Traces the other outcome ("then") of every branch of `path` past its first `forced`."""
    for i in range(forced, len(path.decisions)):
        if len(paths) >= MAX_PATHS:
            raise BadScope(f"{model_name}: its forward's branches make more than {MAX_PATHS} paths; export it whole")
        other = _trace_path(model, count, path.outcomes[:i] + (True,), model_name)
        paths.append(other)
        _explore(model, count, other, i + 1, paths, model_name)


def _trace_path(model, count, forced, model_name):
    """One trace, the first len(forced) branches taken as forced, later ones "else"."""
    from .graph_breaks import _where

    decisions, compares = [], []
    own = type(model).forward.__code__

    def decide(proxy):
        # The code that branches: the innermost frame outside torch and this package (a submodule's
        # forward is called from the model's, so the model's frame is on the stack there too).
        frame = next((f for f in inspect.stack(0) if not _ours(f.filename)), None)
        if frame is None or frame.frame.f_code is not own:
            raise NotOwnBranches("a branch inside a submodule")
        line = _where(frame.filename, frame.lineno)
        decisions.append(_decision(proxy.node, line))
        compares.append(proxy.node.name)
        if len(decisions) > MAX_DECISIONS:
            raise BadScope(f"{model_name}: more than {MAX_DECISIONS} branches on one path (at {line}): a loop that "
                           "the data end cannot be split; export it whole")
        k = len(decisions) - 1
        return forced[k] if k < len(forced) else False

    try:
        gm = trace(model, count, decide)
    except (BadScope, NotOwnBranches):
        raise
    except Exception as e:  # noqa: BLE001 - torch.fx cannot trace it for another reason: not ours
        raise NotOwnBranches(str(e))
    names = [n.name for n in gm.graph.nodes]
    return Path(outcomes=tuple(forced) + (False,) * (len(decisions) - len(forced)), gm=gm, decisions=decisions,
                ends=[names.index(c) for c in compares])


def _ours(filename):
    """A frame of torch or of this package, not of the user's model."""
    import os

    import torch

    here = os.path.dirname(os.path.abspath(__file__))
    return filename.startswith((os.path.dirname(torch.__file__), here)) or filename.startswith("<")


def _decision(node, line):
    """The branch's comparison node as a Decision; NotOwnBranches for a branch of another form."""
    compare = COMPARE.get(node.target) if node.op == "call_function" else None
    if compare is not None and len(node.args) == 2:
        a, b = node.args
        if _is_item(a) and isinstance(b, (int, float)):
            return Decision(a.args[0].name, compare, float(b), line)
        if _is_item(b) and isinstance(a, (int, float)):
            return Decision(b.args[0].name, FLIPPED[compare], float(a), line)
    # A branch on a shape, or on a tensor (`if x.sum() > 0:`): torch.compile's tracer decides (pieces.split).
    raise NotOwnBranches(f"the branch at {line} is not `<tensor>.item()` compared with a number")


def _is_item(arg):
    return getattr(arg, "op", None) == "call_method" and arg.target == "item"


# ---- pieces ----

class _Cutter:
    """The pieces and the tree from the traced paths. A tree node is a prefix of outcomes; the ops of
    a path between its branches i-1 and i belong to the node of its first i outcomes (paths sharing a
    prefix traced those ops alike). Pieces are made depth first, so a piece's inputs come from pieces
    before it on its path; its outputs grow as later pieces ask for its values."""

    def __init__(self, model, inputs, paths, model_name):
        import torch.fx as fx

        self.fx, self.paths, self.model_name = fx, paths, model_name
        self.blocks = repeated_blocks(model)
        self.info = [self._path_info(p, inputs) for p in paths]
        self.graphs, self.envs, self.piece_of, self.out_of, self.inputs_of, self.runs = [], [], {}, {}, [], []

    @staticmethod
    def _path_info(path, inputs):
        values, _ = record_values(path.gm, inputs)
        segment, seg, host = {}, 0, set()
        for i, node in enumerate(path.gm.graph.nodes):
            segment[node.name] = seg
            if i in path.ends:  # the comparison and its .item(): the host's, in no piece
                host.add(node.name)
                host.update(a.name for a in node.args if _is_item(a))
                seg += 1
        placeholders = [n.name for n in path.gm.graph.nodes if n.op == "placeholder"]
        return {"values": values, "segment": segment, "host": host, "placeholders": placeholders,
                "nodes": {n.name: n for n in path.gm.graph.nodes}}

    def _path(self, prefix):
        k = next(i for i, p in enumerate(self.paths) if p.outcomes[:len(prefix)] == prefix)
        return self.paths[k], self.info[k]

    def cut(self):
        self.nodes = []
        self._node(())
        pieces = []
        for k, (prefix, run) in enumerate(self.runs):
            path, info = self._path(prefix)
            outs = [self.envs[k][info["nodes"][name]] for name in self.out_of[prefix]]
            self.graphs[k].output(tuple(outs))
            module = self.fx.GraphModule(path.gm, self.graphs[k], class_name=f"Piece{k}")
            tag = _tag(run, self.blocks, uncapturable(path.gm, info["values"]))
            pieces.append(Piece(module=module, inputs=self.inputs_of[k], outputs=len(outs), tag=tag))
        return Branches(pieces=pieces, nodes=self.nodes, paths=self.paths)

    def _in_run(self, node, prefix, info):
        return (info["segment"][node.name] == len(prefix) and node.name not in info["host"]
                and node.op not in ("placeholder", "get_attr", "output") and _is_tensors(info["values"].get(node)))

    def _node(self, prefix):
        """Appends the tree node of `prefix` (and its children after it); returns its index."""
        path, info = self._path(prefix)
        run = [n for n in path.gm.graph.nodes if self._in_run(n, prefix, info)]
        index = len(self.nodes)
        node = {"run": []}
        self.nodes.append(node)
        if run:
            k = len(self.graphs)
            self.piece_of[prefix], self.out_of[prefix] = k, []
            self.graphs.append(self.fx.Graph())
            self.envs.append({})
            self.inputs_of.append([])
            self.runs.append((prefix, run))
            for n in run:
                self.envs[k][n] = self.graphs[k].node_copy(n, lambda a, k=k: self._value_in(k, prefix, a, info))
            node["run"] = [k]
        if len(path.decisions) > len(prefix):
            d = path.decisions[len(prefix)]
            value = info["nodes"][d.value]
            got = info["values"].get(value)
            if not _is_tensor(got) or got.numel() != 1:
                raise BadScope(f"{self.model_name}: the branch at {d.line} reads .item() of a value that is not a "
                               "one-element tensor")
            then = self._node(prefix + (True,))
            other = self._node(prefix + (False,))
            if self.nodes[then] == self.nodes[other] and not self.nodes[then]["run"]:
                # Both ways end alike (the last exit of a loop: `break`, or the loop's end): no decision.
                node["outputs"] = self.nodes[then]["outputs"]
                del self.nodes[then:]
                return index
            node.update({"value": self._ref(prefix, value, info), "compare": d.compare, "than": d.than,
                         "line": d.line, "then": then, "else": other})
        else:
            output = next(n for n in path.gm.graph.nodes if n.op == "output")
            refs = []
            for a in _flat(output.args[0]):
                if not _is_tensor(info["values"].get(a)):
                    raise BadScope(f"{self.model_name}: output {a.name} is not a tensor")
                refs.append(self._ref(prefix, a, info))
            node["outputs"] = refs
        return index

    def _ref(self, prefix, node, info):
        """The ref of a tensor computed on this path at or before `prefix`'s node: its owner hands it on."""
        if node.op == "placeholder":
            return f"input{info['placeholders'].index(node.name)}"
        if node.name in info["host"]:
            raise BadScope(f"{self.model_name}: {node.name}, a value read on the host for a branch, is used by the "
                           "model's ops: only tensors can pass between pieces")
        owner = prefix[:info["segment"][node.name]]
        outs = self.out_of[owner]
        if node.name not in outs:
            outs.append(node.name)
        return f"piece{self.piece_of[owner]}.out{outs.index(node.name)}"

    def _value_in(self, k, prefix, node, info):
        """`node`'s value inside piece k: an input of it, or computed again in it (a parameter, a size)."""
        env = self.envs[k]
        if node in env:
            return env[node]
        earlier = info["segment"][node.name] < len(prefix)
        if node.op == "placeholder" or (earlier and node.op != "get_attr" and _is_tensor(info["values"].get(node))):
            env[node] = self.graphs[k].placeholder(f"in{len(self.inputs_of[k])}")
            self.inputs_of[k].append(self._ref(prefix, node, info))
            return env[node]
        if node.name in info["host"]:
            self._ref(prefix, node, info)  # raises: a host value used by an op
        env[node] = self.graphs[k].node_copy(node, lambda a: self._value_in(k, prefix, a, info))
        return env[node]


# ---- running ----

def run_tree(nodes, calls, inputs, force=None):
    """Runs the tree: calls[k] is (piece k's callable, its input refs), `force` (a list of outcomes,
    consumed in order) overrides the host's reads. Returns (the model's outputs, the outcomes taken)."""
    taken, node = [], nodes[0]
    ordered = []  # resolve() indexes pieces by position: every piece's outputs at its index

    def value(ref):
        return resolve(ref, inputs, ordered)

    while True:
        for k in node["run"]:
            ordered += [()] * (k + 1 - len(ordered))
            result = calls[k][0](*[value(r) for r in calls[k][1]])
            ordered[k] = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        if "outputs" in node:
            return [value(r) for r in node["outputs"]], taken
        if force is not None and len(taken) < len(force):
            outcome = force[len(taken)]
        else:
            v, than = value(node["value"]).item(), node["than"]
            outcome = {">": v > than, ">=": v >= than, "<": v < than, "<=": v <= than}[node["compare"]]
        taken.append(outcome)
        node = nodes[node["then"] if outcome else node["else"]]


def with_threshold(nodes, threshold):
    """The tree with every decision's number replaced by `threshold` (None: as it is), as graphbench does."""
    return [dict(n, than=threshold) if "value" in n and threshold is not None else n for n in nodes]


def describe(nodes):
    """The branches, one line each, depth first (for the export's log)."""
    lines = []

    def walk(index, depth):
        node = nodes[index]
        if "value" in node:
            lines.append(f"{'  ' * depth}branch at {node['line']}: {node['value']} {node['compare']} {node['than']:g}")
            walk(node["then"], depth + 1)
            walk(node["else"], depth + 1)

    walk(0, 0)
    return lines
