"""Python's own figures for the models graphbench runs: eager PyTorch, torch.cuda.graph replay and
torch.compile (default, and mode="reduce-overhead": CUDA graph trees).

    python3 scripts/python_baseline.py --suite configs/models.json -o python-baseline.json \\
        [--graphbench graphbench-out/models/results.json]
    python3 scripts/python_baseline.py torchvision:resnet18 --batch 1 -o resnet18.json

Each model is built again from the manifest beside its file (or from its name) and timed once, on
the GPU: eager (no_grad; mode train: zero_grad, forward, loss, backward, step), graph (g.replay()
with the input in place), graph+copy (the input copied in, then replay: graphbench's graph
variant), compile and reduce-overhead (each with its compile time). A model in pieces (--scope, or
a suite's case of pieces) adds the chain eagerly and with make_graphed_callables per scope. Each
figure is the median of per-call CUDA-event times; docs/models.md, "Python's figures beside ours".

Writes JSON (-o) and prints a Markdown table (with --graphbench, graphbench's medians beside).
Exit codes: 0 done, 1 a model failed (recorded, the others still run), 2 bad input.
"""

import argparse
import json
import os
import re
import sys

from .. import pieces as model_pieces
from .. import suites
from ..errors import BadInput, arg_type, one_line
from ..export import int_list
from ..models import own_code
from ..models import zoo as model_zoo
from ..output_match import largest_difference
from ..results import fmt_us, read_results
from .timing import capture, environment, time_median_us, wall_seconds

PROG = "python_baseline.py"


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("models", nargs="*", help="SOURCE:NAME model names (instead of --suite), py:FILE.py:CALLABLE too")
    p.add_argument("--suite", help="a suite file whose model files scripts/export_model.py wrote")
    p.add_argument("--batch", type=int_list, help="with model names: batch sizes, comma-separated (default 1; py: "
                                                  "models: their callable's default)")
    p.add_argument("--mode", choices=["inference", "train"], default="inference", help="with model names")
    p.add_argument("--seq", type=int, default=128, help="with model names: hf encoders' sequence length")
    p.add_argument("--dtype", choices=model_zoo.DTYPES, default="float32", help="with model names (not py: ones)")
    p.add_argument("--input-range", type=arg_type(own_code.parse_input_range), action="append", default=[],
                   metavar="[N=]LO,HI",
                   help="with py: model names: int64 input N (every int64 input without N) drawn from [LO, HI)")
    p.add_argument("-o", "--output", help="the JSON file to write")
    p.add_argument("--cases", metavar="REGEX", help="with --suite: only the cases whose names match (re.search)")
    p.add_argument("--append", action="store_true",
                   help="keep the cases the --output file already holds (a case measured again is replaced), so "
                        "that several calls fill one file")
    p.add_argument("--graphbench", help="a graphbench results.json of the same suite, for the side-by-side table")
    p.add_argument("--samples", type=int, default=50, help="samples per figure (default 50)")
    p.add_argument("--min-sample-ms", type=float, default=1.0, help="calls per sample so that one lasts this long")
    p.add_argument("--warmup", type=int, default=10, help="untimed calls before sampling (default 10)")
    p.add_argument("--no-compile", action="store_true", help="leave out the two torch.compile figures")
    p.add_argument("--compile-pieces", action="store_true",
                   help="inference pieces: each capturable piece compiled by torch.compile (Inductor, default mode) "
                        "before it is timed and made a graphed callable, as graphbench's AOTInductor pieces are "
                        "(export_model.py --scope --format pt2)")
    p.add_argument("--scope", type=model_pieces.scope_arg, metavar="SCOPE",
                   help="with model names: the model split at a capture scope (layer, attention-out, modules=REGEX, "
                        "auto) and its pieces timed eagerly and with make_graphed_callables")
    args = p.parse_args(argv)
    if bool(args.models) == bool(args.suite):
        p.error("give model names or --suite, not both")
    if args.scope is not None and args.suite:
        p.error("--scope goes with model names: a suite's cases of pieces say their own scope")
    if args.cases is not None:
        if not args.suite:
            p.error("--cases picks cases of a suite: give --suite with it")
        try:
            re.compile(args.cases)
        except re.error as e:
            p.error(f"--cases {args.cases}: not a regular expression ({e})")
    if args.append and not args.output:
        p.error("--append keeps the cases of the --output file: give -o with it")
    return args


def case_scope(model_file, case):
    """The scope of a suite's case of pieces: its first piece's manifest says it; None for a whole model."""
    pieces = case.get("pieces")
    if not pieces:
        return None
    manifest = suites.manifest_path(model_file(pieces[0]["path"]))
    try:
        text = suites.read_json(manifest, "manifest")["scope"]
    except (BadInput, KeyError, TypeError) as e:
        raise BadInput(f"{manifest}: cannot read the scope of case {case.get('name')} ({e}); "
                                 "scripts/export_model.py --scope writes it")
    try:
        return model_pieces.parse_scopes(text)
    except model_pieces.BadScope as e:
        raise BadInput(f"{manifest}: {e}")


def cases_from_suite(path, pattern=None):
    """(case name, ModelCase, scope or None) per case of a suite (matching `pattern`), from its manifests."""
    suite = suites.read_json(path, "suite")
    base = os.path.dirname(os.path.abspath(path))

    def model_file(path):
        return path if os.path.isabs(path) else os.path.join(base, path)

    out = [(case["name"], model_zoo.read_manifest(model_file(case["path"])), case_scope(model_file, case))
           for case in suite.get("cases", []) if case.get("workload") in ("torchscript", "aoti")
           and (pattern is None or re.search(pattern, case.get("name", "")))]
    if not out:
        raise BadInput(f"{path}: no torchscript or aoti case" + (f" whose name matches {pattern}" if pattern else ""))
    return out


def cases_from_names(args):
    cases = model_zoo.model_cases(args.models, args.batch, {index: (lo, hi) for index, lo, hi in args.input_range},
                                  mode=args.mode, seq=args.seq, dtype=args.dtype)
    slug = f"-{model_pieces.scopes_slug(args.scope)}" if args.scope else ""
    return [(case.stem() + slug, case, args.scope) for case in cases]


def dynamo_counts(model, inputs):
    """{"graphs": N, "breaks": M, "reasons": [...]}: the graphs torch.compile makes of the model and
    the breaks between them (torch._dynamo.explain); reduce-overhead records a CUDA graph per graph."""
    import torch

    try:
        torch._dynamo.reset()
        explained = torch._dynamo.explain(model)(*inputs)
        return {"graphs": explained.graph_count, "breaks": explained.graph_break_count,
                "reasons": sorted({r.reason.splitlines()[0] for r in explained.break_reasons})[:5]}
    except Exception as e:  # noqa: BLE001 - say why, go on
        return {"failed": one_line(e)}
    finally:
        torch._dynamo.reset()


def compiled_figures(model, call, args):
    """{"compile": ..., "reduce_overhead": ...}: `call(compiled_model)` under torch.compile's two modes,
    each with its compile time (the wall time of its first calls: compiling, and for reduce-overhead
    recording the graph); a failure is recorded."""
    import torch

    if args.no_compile:
        return {}
    out = {}
    for key, mode, warm_calls in (("compile", "default", 1), ("reduce_overhead", "reduce-overhead", 3)):
        torch._dynamo.reset()
        try:
            compiled = torch.compile(model, mode=mode)
            compile_seconds = wall_seconds(lambda: call(compiled), warm_calls)
            out[key] = {**time_median_us(lambda: call(compiled), args), "compile_seconds": compile_seconds}
        except Exception as e:  # noqa: BLE001 - a model torch.compile cannot take: say why, go on
            out[key] = {"failed": one_line(e)}
    torch._dynamo.reset()
    return out


class Segment:
    """Pieces run one after another as one callable (an nn.Module, so that make_graphed_callables
    sees their parameters): what one graph of a scope captures."""

    def __init__(self, pieces, indices, train=False):
        import torch

        self.outputs = [f"piece{k}.out{n}" for k in indices for n in range(pieces[k].outputs)]
        self.inputs = list(dict.fromkeys(r for k in indices for r in pieces[k].inputs if r not in self.outputs))
        wiring = [pieces[k].inputs for k in indices]
        inputs, outputs = self.inputs, self.outputs

        class Run(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.pieces = torch.nn.ModuleList([pieces[k].module for k in indices])

            def forward(self, *args):
                env = dict(zip(inputs, args))
                for k, piece, refs in zip(indices, self.pieces, wiring):
                    result = piece(*[env[r] for r in refs])
                    env.update((f"piece{k}.out{n}", t) for n, t in enumerate(result))
                return tuple(env[r] for r in outputs)

        self.module = Run().train(train)


def run_segments(segments, calls, model_outputs, inputs, piece_args=None):
    """Calls each segment (calls[i]) on its inputs; the model's outputs."""
    env = {f"input{i}": t for i, t in enumerate(inputs)}
    for segment, call in zip(segments, calls):
        args = [env[r] for r in segment.inputs]
        if piece_args is not None:
            piece_args.append(args)
        env.update(zip(segment.outputs, call(*args)))
    return [env[r] for r in model_outputs]


def measure_pieces(case, model, inputs, expected, scopes, args):
    """The model (eval mode) split at the scopes' boundaries: the chain of pieces called eagerly, and
    per scope the chain with a graphed callable per graph that graphbench's scope makes
    (model_pieces.segments), with its largest difference from the whole model in eager."""
    import torch

    for p in model.parameters():
        p.requires_grad_(False)  # inference: no backward graphs for make_graphed_callables to make
    split = model_pieces.split(model, inputs, scopes, case.model)
    if args.compile_pieces:
        torch._dynamo.reset()
        for piece in (p for p in split.pieces if p.tag.get("capturable", True)):
            piece.module = torch.compile(piece.module)
    calls = [p.module for p in split.pieces]
    wiring = [p.inputs for p in split.pieces]
    with torch.no_grad():
        eager = time_median_us(lambda: model_pieces.run_chain(calls, wiring, split.outputs, inputs), args)
    figure = {"scope": model_pieces.scopes_text(scopes), "pieces": len(calls), "compiled_pieces": args.compile_pieces,
              "pieces_eager": eager, "scopes": {}}

    def timed(segments, seg_calls):
        with torch.no_grad():
            graphed = time_median_us(lambda: run_segments(segments, seg_calls, split.outputs, inputs), args)
            got = run_segments(segments, seg_calls, split.outputs, inputs)
            torch.cuda.synchronize()
            return {"graphed": graphed, "max_abs_diff": largest_difference(got, expected)}

    for scope in scopes:
        groups = model_pieces.segments([p.tag for p in split.pieces], scope)
        figure["scopes"][scope.text()] = graphed_entry(split, groups, inputs, lambda t, ref: t.clone(), timed)
    return figure


def measure_train_pieces(case, model, inputs, target, scopes, args):
    """A training step over the model (train mode) split at the scopes' boundaries: the chain of
    pieces, the loss, backward and the optimizer eager; then per scope, and for fwd-bwd (every piece
    in one graph), the pieces of each graph as one callable of make_graphed_callables (forward and
    backward captured), the rest eager, as PyTorch's documentation shows it. Each figure trains the
    model's own parameters further."""
    split = model_pieces.split(model, inputs, scopes, case.model)
    optimizer = model_zoo.make_optimizer(case, model.parameters())

    def step(segments, calls):
        optimizer.zero_grad(set_to_none=True)
        outputs = run_segments(segments, calls, split.outputs, inputs)
        model_zoo.loss_of(case, outputs, target).backward()
        optimizer.step()

    every = [Segment(split.pieces, [k], train=True) for k in range(len(split.pieces))]
    figure = {"scope": model_pieces.scopes_text(scopes), "pieces": len(split.pieces), "mode": "train",
              "pieces_eager": time_median_us(lambda: step(every, [s.module for s in every]), args), "scopes": {}}
    tags = [p.tag for p in split.pieces]
    groupings = [(scope.text(), model_pieces.segments(tags, scope, train=True)) for scope in scopes]
    groupings.append(("fwd-bwd", [(True, list(range(len(split.pieces))))]))
    def timed(segments, calls):
        return {"graphed": time_median_us(lambda: step(segments, calls), args)}

    for name, groups in groupings:
        figure["scopes"][name] = graphed_entry(split, groups, inputs, sample_arg, timed, train=True)
    return figure


def graphed_entry(split, groups, inputs, sample, timed, train=False):
    """A scope's figure (groups: (captured, piece indices) per segment): its graphs and the pieces it
    runs eagerly, and timed(segments, calls) once the captured segments are one
    make_graphed_callables, each given sample(t, ref) of the arguments it got in an eager run; why
    not, where make_graphed_callables cannot take a piece."""
    import torch

    segments = [Segment(split.pieces, indices, train=train) for _, indices in groups]
    calls = [s.module for s in segments]
    entry = {"graphs": sum(1 for captured, _ in groups if captured),
             "eager_pieces": sum(len(indices) for captured, indices in groups if not captured)}
    try:
        samples = []
        with torch.no_grad():
            run_segments(segments, calls, split.outputs, inputs, samples)
        captured = [i for i, (c, _) in enumerate(groups) if c]
        if captured:
            graphed = torch.cuda.make_graphed_callables(
                tuple(calls[i] for i in captured),
                tuple(tuple(sample(t, ref) for t, ref in zip(samples[i], segments[i].inputs)) for i in captured))
            for i, g in zip(captured, graphed if isinstance(graphed, tuple) else (graphed,)):
                calls[i] = g
        entry.update(timed(segments, calls))
    except Exception as e:  # noqa: BLE001 - a piece make_graphed_callables cannot take: say why, go on
        entry["graphed"] = {"failed": one_line(e)}
    return entry


def sample_arg(value, ref):
    """A training chain's sample argument: a model input as it is (no grad), an earlier piece's
    floating-point output requiring grad, as in the step."""
    sample = value.detach().clone()
    return sample.requires_grad_(True) if not ref.startswith("input") and sample.is_floating_point() else sample


def fed_positions(case):
    """The inputs a replay copies in: all but the state (a KV cache), which stays in the graph's buffers."""
    return [i for i, spec in enumerate(case.inputs()) if spec.get("role") != "state"]


def measure_inference(case, args, scope=None):
    import torch

    model = model_zoo.build_model(case, "cuda").eval()
    inputs = model_zoo.make_inputs(case, "cuda")
    static_inputs = [t.clone() for t in inputs]
    with torch.no_grad():
        eager = time_median_us(lambda: model(*inputs), args)
        expected = [t.clone() for t in model_zoo.flat_tensors(model(*inputs))]
        try:
            graph, static_out = capture(lambda: model(*static_inputs))
        except Exception as e:  # noqa: BLE001 - a model that cannot be captured whole (a branch on
            # .item()): said in its figures; eager, torch.compile and its pieces are still measured
            failed = {"failed": one_line(e)}
            replay, copy_replay, max_diff = failed, dict(failed), None
        else:
            replay = time_median_us(graph.replay, args)

            fed = fed_positions(case)

            def copy_and_replay():
                for i in fed:
                    static_inputs[i].copy_(inputs[i])
                graph.replay()

            copy_replay = time_median_us(copy_and_replay, args)
            copy_and_replay()
            torch.cuda.synchronize()
            got = model_zoo.flat_tensors(static_out)
            max_diff = largest_difference(got, expected)
        compiled = compiled_figures(model, lambda m: m(*inputs), args)
        if not args.no_compile:
            compiled["dynamo"] = dynamo_counts(model, inputs)
    if scope is not None:
        compiled["pieces"] = measure_pieces(case, model, inputs, expected, scope, args)
    return {"eager": eager, "graph": replay, "graph_copy": copy_replay, "graph_max_abs_diff": max_diff, **compiled}


def measure_training(case, args, scope=None):
    def setup(capturable=False):
        """A fresh model, its inputs and target, and its step (of `m`: the model or its compiled form)."""
        model = model_zoo.build_model(case, "cuda").train()
        inputs = model_zoo.make_inputs(case, "cuda")
        target = model_zoo.make_target(case, model(*inputs), "cuda")
        optimizer = model_zoo.make_optimizer(case, model.parameters(), capturable=capturable)

        def step(m=model):
            optimizer.zero_grad(set_to_none=True)
            model_zoo.loss_of(case, m(*inputs), target).backward()
            optimizer.step()

        return model, inputs, target, step

    _, inputs, _, eager_step = setup()
    eager = time_median_us(eager_step, args)
    # Whole-step capture, as PyTorch's CUDA-graph documentation shows it: gradients set to None
    # before capture, so that backward allocates them from the graph's pool.
    _, g_inputs, _, graph_step = setup(capturable=True)
    graph, _ = capture(graph_step)
    replay = time_median_us(graph.replay, args)

    def copy_and_replay():
        for dst, src in zip(g_inputs, inputs):
            dst.copy_(src)
        graph.replay()

    copy_replay = time_median_us(copy_and_replay, args)
    c_model, _, _, compiled_step = setup()  # the optimizer and zero_grad stay eager
    compiled = compiled_figures(c_model, compiled_step, args)
    if scope is not None:
        p_model, p_inputs, p_target, _ = setup()
        compiled["pieces"] = measure_train_pieces(case, p_model, p_inputs, p_target, scope, args)
    return {"eager": eager, "graph": replay, "graph_copy": copy_replay, "graph_max_abs_diff": None, **compiled}


def measure_all(cases, args):
    """One result per distinct model; every case name that uses it points at it."""
    results = {}
    by_case = {}
    failed = False
    for case_name, case, scope in cases:
        key = json.dumps({**case.to_json(), "scope": model_pieces.scopes_text(scope) if scope else None},
                         sort_keys=True)
        if key not in results:
            print(f"{PROG}: {case.model} batch {case.batch} ({case.mode})", file=sys.stderr)
            entry = {"model": case.model, "batch": case.batch, "mode": case.mode, "dtype": case.dtype,
                     "inputs": case.inputs()}
            try:
                measure = measure_training if case.mode == "train" else measure_inference
                entry.update({"status": "ok", **measure(case, args, scope)})
            except Exception as e:  # noqa: BLE001 - record it, go on with the other models
                failed = True
                entry.update({"status": "failed", "reason": f"{type(e).__name__}: {e}"})
                print(f"{PROG}: {case.model} failed: {e}", file=sys.stderr)
            results[key] = entry
        by_case[case_name] = results[key]
    return by_case, failed


def graphbench_medians(path):
    """{(case, variant): (median us, reason, roofline share, scope group, scope)} of a graphbench
    results.json; a point of a scope sweep also under ((scope group, scope), variant)."""
    out = {}
    for r in read_results(path).records:
        if r.ok and r.median_us is not None:
            value = (r.median_us, r.get("reason", ""), (r.get("roofline") or {}).get("bandwidth_share"),
                     r.scope_group, r.scope)
            out[(r.case, r.variant)] = value
            if r.scope_group:
                out[((r.scope_group, r.scope), r.variant)] = value
    return out


def figure_cell(figure):
    """A timed figure, or why there is none (a model that cannot be captured whole)."""
    return f"failed: {figure['failed']}" if "failed" in figure else fmt_us(figure["median_us"])


def compiled_cell(figure):
    """A torch.compile figure with its compile time, or why there is none."""
    if not figure or "failed" in figure:
        return figure_cell(figure) if figure else ""
    return f"{fmt_us(figure['median_us'])} ({figure['compile_seconds']:.1f} s)"


def dynamo_note(counts):
    """", 1 graph, 0 breaks": what torch.compile made of the model, after its figure."""
    if not counts or "graphs" not in counts:
        return ""
    return f", {counts['graphs']} graph{'s' if counts['graphs'] != 1 else ''}, {counts['breaks']} break" + \
        ("s" if counts["breaks"] != 1 else "")


def best_python(e):
    """The fastest Python figure: (name, us)."""
    figures = [("eager", e["eager"]), ("cuda.graph", e["graph"]), ("compile", e.get("compile")),
               ("reduce-overhead", e.get("reduce_overhead"))]
    ok = [(name, f["median_us"]) for name, f in figures if f and "median_us" in f]
    return min(ok, key=lambda x: x[1]) if ok else None


def pieces_cells(figure):
    """A row's cells of pieces: their count, the eager chain, per scope the graphed chain and its graphs."""
    if not figure:
        return " | | |"
    cells = []
    for scope, entry in figure["scopes"].items():
        graphed = entry.get("graphed") or {}
        time = fmt_us(graphed["median_us"]) if "median_us" in graphed else f"failed: {graphed.get('failed', '')}"
        cells.append(f"{scope}: {time} ({entry['graphs']} graphs)")
    return f" {figure['pieces']} | {fmt_us(figure['pieces_eager']['median_us'])} | {'; '.join(cells)} |"


def scope_cells(graphbench, case_name):
    """graphbench's graph medians of a case swept over scopes (the records whose scope_group is the
    case): "full: 812; layer: 845"."""
    cells = [f"{value[4]}: {fmt_us(value[0])}{' (ran eagerly)' if value[1] else ''}"
             for (case, variant), value in graphbench.items()
             if variant == "graph" and isinstance(case, str) and value[3] == case_name]
    return "; ".join(cells)


def best_of_both(case_name, e, graphbench):
    """The fastest graph of graphbench's (over the case's scopes; a point that ran eagerly is no
    graph) and the fastest Python figure (best_python, and make_graphed_callables over the pieces
    per scope): ((name, us), (name, us)), either None where that side has no figure."""
    ours = [(value[4] or "full", value[0]) for (case, variant), value in graphbench.items()
            if variant == "graph" and isinstance(case, str) and not value[1] and
            (value[3] == case_name or (case == case_name and not value[3]))]
    theirs = [best_python(e)] if e.get("status") == "ok" else []
    for scope, entry in ((e.get("pieces") or {}).get("scopes") or {}).items():
        graphed = entry.get("graphed") or {}
        if "median_us" in graphed:
            theirs.append((f"make_graphed_callables {scope}", graphed["median_us"]))
    theirs = [t for t in theirs if t]
    return (min(ours, key=lambda x: x[1]) if ours else None), (min(theirs, key=lambda x: x[1]) if theirs else None)


def table(by_case, graphbench):
    # The columns in groups: each group's headers and their alignments.
    columns = [("case | model | batch | mode", "---|---|--:|---")]
    if graphbench is not None:
        columns.append(("graphbench eager (us) | graphbench graph (us) | roofline share of the graph", "--:|--:|--:"))
    columns.append(("Python eager (us) | Python cuda.graph replay (us) | Python cuda.graph, copy + replay (us) | "
                    "torch.compile (us, compile time) | reduce-overhead (us, compile time)", "--:|--:|--:|--:|--:"))
    if graphbench is not None:
        columns.append(("graphbench graph / best Python", "--:"))
    scoped = any("pieces" in e for e in by_case.values())
    if scoped:
        columns.append(("pieces | pieces eager (us) | make_graphed_callables per scope (us, graphs)", "--:|--:|---"))
        if graphbench is not None:
            columns.append(("graphbench graph per scope (us) | best graph of graphbench / best of Python (us)", "---|---"))
    lines = ["| " + " | ".join(names for names, _ in columns) + " |",
             "|" + "|".join(rule for _, rule in columns) + "|"]
    at_or_below, compared = 0, 0
    for case_name, e in by_case.items():
        row = f"| {case_name} | {e['model']} | {e['batch']} | {e['mode']} |"
        graph = None
        if graphbench is not None:
            # A case swept over scopes: its full scope's point here.
            eager = graphbench.get((case_name, "eager")) or graphbench.get(((case_name, "full"), "eager"))
            graph = graphbench.get((case_name, "graph")) or graphbench.get(((case_name, "full"), "graph"))
            note = " (ran eagerly)" if graph and graph[1] else ""
            share = f"{graph[2]:.0%}" if graph and graph[2] is not None else ""
            row += f" {fmt_us(eager[0]) if eager else ''} | {fmt_us(graph[0]) if graph else ''}{note} | {share} |"
        if e["status"] == "ok":
            row += (f" {fmt_us(e['eager']['median_us'])} | {figure_cell(e['graph'])} |"
                    f" {figure_cell(e['graph_copy'])} | {compiled_cell(e.get('compile'))} |"
                    f" {compiled_cell(e.get('reduce_overhead'))}{dynamo_note(e.get('dynamo'))} |")
            if graphbench is not None:
                best = best_python(e)
                row += f" {graph[0] / best[1]:.3f} ({best[0]}) |" if graph and best else " |"
        else:
            row += f" failed: {e['reason']} | | | | |" + (" |" if graphbench is not None else "")
        if scoped:
            row += pieces_cells(e.get("pieces"))
            if graphbench is not None:
                row += f" {scope_cells(graphbench, case_name)} |"
                ours, theirs = best_of_both(case_name, e, graphbench)
                if ours and theirs:
                    compared += 1
                    at_or_below += ours[1] <= theirs[1]
                    row += (f" {fmt_us(ours[1])} ({ours[0]}) / {fmt_us(theirs[1])} ({theirs[0]}):"
                            f" {ours[1] / theirs[1]:.3f} |")
                else:
                    row += " |"
        lines.append(row)
    text = "\n".join(lines) + "\n"
    if scoped and graphbench is not None:
        text += (f"\ngraphbench's best graph at or below Python's best figure in {at_or_below} of {compared} cases "
                 f"(cases with a figure on both sides).\n")
    return text


def main(argv):
    args = parse_args(argv)
    cases = cases_from_suite(args.suite, args.cases) if args.suite else cases_from_names(args)
    kept = {}
    if args.append and os.path.exists(args.output):
        kept = suites.read_json(args.output, "Python baseline").get("cases", {})
    graphbench = graphbench_medians(args.graphbench) if args.graphbench else None
    import torch

    if not torch.cuda.is_available():
        raise BadInput("no CUDA device: the baseline times CUDA graphs")
    by_case, failed = measure_all(cases, args)
    by_case = {**{name: e for name, e in kept.items() if name not in by_case}, **by_case}
    markdown = table(by_case, graphbench)
    print(markdown)
    if args.output:
        suites.write_json(args.output, {"environment": environment(), "cases": by_case}, compact=False)
        suites.write_whole(os.path.splitext(args.output)[0] + ".md", markdown)
    return 1 if failed else 0
