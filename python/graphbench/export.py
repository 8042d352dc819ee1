"""Export models for graphbench's model workloads, and a suite file that runs them.

    python3 scripts/export_model.py torchvision:resnet50 --batch 1,32 --format pt,pt2 -o models/
    build/graphbench run --config models/suite.json

Per model and batch, into the output folder: <stem>.pt (TorchScript), <stem>.pt2 (an AOTInductor
package; with --mode train one whole training step, its initial state in <stem>.state.pt), and
beside each file <file>.json, what made it and where the export's time went. With --scope, one
<stem>.<scope>.piece<K>.pt per piece beside the whole model, their chain checked against it. Then
a suite file with a case per file (default <output>/suite.json). Weights are random: nothing is
downloaded. docs/models.md says the rest. Exit codes: 0 written, 1 an export failed (the others
are still written, and the suite holds their cases), 2 bad arguments.
"""

import argparse
import inspect
import json
import os
import shlex
import sys
from pathlib import Path

from . import export_times, suites
from . import pieces as model_pieces
from .errors import BadInput, arg_type
from .output_match import check_outputs, largest_difference
from .models import own_code, trace_fixes
from .models import zoo as model_zoo

PROG = "export_model.py"
WORKLOAD_OF_FORMAT = {"pt": "torchscript", "pt2": "aoti"}
SUITE_DEFAULTS = {
    "warmup": 10,
    "variants": ["eager", "graph"],
    "sampling": {"min_samples": 10, "max_samples": 2000, "min_time_s": 1.0, "max_time_s": 20,
                 "target_rel_noise": 0.01},
}


def int_list(text):
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of integers, got {text!r}")
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def format_list(text):
    formats = [f for f in text.split(",") if f]
    unknown = [f for f in formats if f not in WORKLOAD_OF_FORMAT]
    if not formats or unknown:
        raise argparse.ArgumentTypeError(f"expected formats among pt, pt2, got {text!r}")
    return formats


def key_value(text):
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("models", nargs="+", help="SOURCE:NAME, e.g. torchvision:resnet50, timm:vit_base_patch16_224, "
                                             "hf:bert, py:examples/conv_attention.py:make_model")
    p.add_argument("--batch", type=int_list, help="batch sizes, comma-separated (default 1; py: models: the default "
                                                  "of their batch keyword)")
    p.add_argument("--format", type=format_list, help="pt (TorchScript), pt2 (AOTInductor); default both (with --scope: pt)")
    p.add_argument("-o", "--output", default="models", help="folder for the model files (default models/)")
    p.add_argument("--suite", help="the suite file to write (default OUTPUT/suite.json)")
    p.add_argument("--suite-name", default="models", help="the suite's name (default models)")
    p.add_argument("--append", action="store_true", help="add the cases to the suite file if it exists")
    p.add_argument("--suite-description", help="the suite's description (a new suite file only)")
    p.add_argument("--mode", choices=["inference", "train"], default="inference",
                   help="train: a whole training step (loss, backward, optimizer), as TorchScript (the engine runs "
                        "backward and the optimizer) or as one AOTInductor package")
    p.add_argument("--dtype", choices=model_zoo.DTYPES, help="the model's dtype (default float32; py: models keep "
                                                            "the dtypes their code makes)")
    p.add_argument("--input-range", type=arg_type(own_code.parse_input_range), action="append", default=[], metavar="[N=]LO,HI",
                   help="py: models: int64 input N (every int64 input without N) drawn from [LO, HI); may be repeated")
    p.add_argument("--image-size", type=int, default=224, help="vision models: input height and width (default 224)")
    p.add_argument("--seq", type=int, default=128, help="hf models: sequence length (default 128)")
    p.add_argument("--token-high", type=int, default=1000, help="hf models: token ids drawn from [0, N) (default 1000)")
    p.add_argument("--hf-config", type=key_value, action="append", default=[], metavar="KEY=VALUE",
                   help="hf models: override a config field, e.g. num_hidden_layers=6")
    p.add_argument("--decode", action="store_true",
                   help="hf decoders: one decoding step with a static KV cache instead of the prefill")
    p.add_argument("--max-seq", type=int, help="--decode: the KV cache's positions (default 1024)")
    p.add_argument("--pos", type=int, help="--decode: the position the step writes and attends up to (default 512)")
    p.add_argument("--cache-as-state", action="store_true",
                   help="--decode: the KV cache as inputs of the step that it writes in place (role state in the "
                        "suite, allocated and filled by graphbench), so that the file holds the weights only; with "
                        "--dynamic-batch N, one package for every batch up to N")
    p.add_argument("--inductor-config", type=key_value, action="append", default=[], metavar="KEY=VALUE",
                   help="pt2: an Inductor setting for the compile (torch._inductor.config), e.g. "
                        "max_autotune=true or force_layout_optimization=true; may be repeated")
    p.add_argument("--channels-last", action="store_true",
                   help="mode train, pt2: the model's 4-d weights kept in channels-last memory format (its state "
                        "file holds them so), the images converted inside the step: cuDNN's convolutions then run "
                        "without converting layouts")
    p.add_argument("--dynamic-batch", type=int, default=0, metavar="N",
                   help="pt2: one package for every batch size from 1 to N (torch.export.Dim on dimension 0 of "
                        "the batched inputs), traced at --batch; a suite sweeps it over batch")
    p.add_argument("--dynamic-cache", type=int, default=0, metavar="M",
                   help="pt2: one package for every KV cache length from 1 to M (torch.export.Dim on dimension 2 "
                        "of every state input), traced at the example's length; a suite sweeps it over cache. "
                        "Only for a model whose step reads the length from its cache tensors (a py: model with "
                        "state inputs, as examples/tiny_decode.py); refused for hf: models")
    p.add_argument("--loss", choices=model_zoo.LOSSES, default="cross_entropy", help="mode train (default cross_entropy)")
    p.add_argument("--optimizer", choices=model_zoo.OPTIMIZERS, default="sgd", help="mode train (default sgd)")
    p.add_argument("--lr", type=float, default=0.01, help="mode train (default 0.01)")
    p.add_argument("--momentum", type=float, default=0.9, help="mode train, SGD (default 0.9)")
    p.add_argument("--rtol", type=float, help="the cases' tolerance of the comparison with eager (default: by dtype)")
    p.add_argument("--atol", type=float, help="the cases' absolute tolerance (default: by dtype)")
    p.add_argument("--device", help="where to trace and compile (default cuda if available, else cpu)")
    p.add_argument("--scope", type=model_pieces.scope_arg, metavar="SCOPE",
                   help="split the model into pieces at a capture scope's boundaries (layer, attention-out, "
                        "modules=REGEX, auto, or several comma-separated: split at each one's; torch.fx): the whole "
                        "model's file, a TorchScript file per piece, and a case that runs the chain of pieces (with "
                        "--mode train, a training step over it) (docs/models.md, \"Splitting a model into pieces\")")
    p.add_argument("--pieces-package", choices=["each", "one"], default="each",
                   help="--scope --format pt2: an AOTInductor package per compiled piece (each), or every compiled "
                        "piece a named model of one package (one)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dry-run", action="store_true", help="write the suite (and manifests) only, export nothing")
    args = p.parse_args(argv)
    if args.format is None:
        args.format = ["pt"] if args.scope is not None else ["pt", "pt2"]
    if args.scope is not None:
        # Before the AOTInductor options' own checks, which would ask for --format pt2 of the whole model.
        if len(args.format) != 1:
            p.error("--scope writes one chain of pieces: give --format pt (TorchScript pieces) or --format pt2 (the "
                    "capturable pieces compiled by Inductor as AOTInductor packages, the others TorchScript)")
        if args.format == ["pt2"] and args.mode == "train":
            p.error("--scope --format pt2 compiles inference pieces: a training step's pieces are TorchScript (give "
                    "--format pt with --mode train)")
        aoti_option = next((name for name, given in (("--channels-last", args.channels_last),
                                                     ("--dynamic-batch", args.dynamic_batch),
                                                     ("--dynamic-cache", args.dynamic_cache)) if given), None)
        if aoti_option:
            p.error(f"--scope: pieces are made at the traced shapes; {aoti_option} does not go with it")
        if args.inductor_config and args.format != ["pt2"]:
            p.error("--inductor-config sets how Inductor compiles pieces: give --format pt2 with --scope")
        if args.dry_run:
            p.error("--scope needs the model traced to know its pieces: it does not go with --dry-run")
    if args.pieces_package != "each" and (args.scope is None or args.format != ["pt2"]):
        p.error("--pieces-package says how compiled pieces are packaged: give --scope and --format pt2 with it")
    if args.inductor_config and "pt2" not in args.format:
        p.error("--inductor-config sets how AOTInductor compiles: give --format pt2 with it")
    if args.channels_last and (args.mode != "train" or args.format != ["pt2"]):
        p.error("--channels-last is for a training step's package: give --mode train --format pt2 with it")
    if args.dynamic_batch and args.format != ["pt2"]:
        p.error("--dynamic-batch makes AOTInductor packages: give --format pt2 with it")
    if args.dynamic_cache and args.format != ["pt2"]:
        p.error("--dynamic-cache makes AOTInductor packages: give --format pt2 with it (a TorchScript step that "
                "reads the length from its cache takes any length already)")
    if args.dynamic_batch and len(args.batch or [1]) != 1:
        p.error("--dynamic-batch: give one --batch, the example the package is traced with")
    if args.cache_as_state and not args.decode:
        p.error("--cache-as-state describes a decoding step's KV cache: give --decode with it")
    if not args.decode and (args.max_seq is not None or args.pos is not None):
        p.error("--max-seq and --pos describe a decoding step: give --decode with them")
    return args


def model_cases(args):
    own = [m for m in args.models if m.startswith("py:")]
    if own and args.dtype:
        raise BadInput(f"--dtype: {own[0]} keeps the dtypes its code makes (make the model and inputs in the "
                       "dtype to measure)")
    if args.input_range and not own:
        raise BadInput("--input-range sets the int64 inputs of a py: model: give one with it")
    return model_zoo.model_cases(
        args.models, args.batch, {index: (lo, hi) for index, lo, hi in args.input_range}, mode=args.mode,
        dtype=args.dtype or "float32", image_size=args.image_size, seq=args.seq, token_high=args.token_high,
        hf_config=dict(args.hf_config), loss=args.loss, optimizer=args.optimizer, lr=args.lr, momentum=args.momentum,
        seed=args.seed, decode=args.decode, max_seq=1024 if args.max_seq is None else args.max_seq,
        pos=512 if args.pos is None else args.pos, dynamic_batch=args.dynamic_batch,
        dynamic_cache=args.dynamic_cache, cache_as_state=args.cache_as_state)


def suite_case(case, fmt, model_file, suite_dir, command, tolerances):
    entry = {
        "name": f"{case.stem()}-{fmt}",
        "workload": WORKLOAD_OF_FORMAT[fmt],
        "description": f"made by: {command}",
        "path": os.path.relpath(model_file, suite_dir),
        "inputs": case.inputs(),
    }
    if case.dtype != "float32":
        entry["dtype"] = case.dtype
    entry.update({key: tolerances[key] for key in ("rtol", "atol") if tolerances.get(key) is not None})
    if case.mode == "train" and fmt == "pt2":
        # The loss and the optimizer are inside the package; the case names its initial state.
        entry.update({"mode": "train", "state": os.path.relpath(state_path(model_file), suite_dir)})
    elif case.mode == "train":
        entry.update({"mode": "train", "loss": case.loss, "optimizer": case.optimizer, "lr": case.lr})
        if case.optimizer == "sgd":
            entry["momentum"] = case.momentum
    return entry


def pieces_case(entry, scope, pieces, outputs, suite_dir, compiled=False):
    """The whole model's case as the chain of its pieces (`path` stays the whole model, which graphbench
    compares the chain with), swept over full (the baseline) and each scope it was split at."""
    stem = entry["name"].removesuffix("-pt") if compiled else entry["name"]
    return dict(entry, name=f"{stem}{'-inductor' if compiled else ''}-{model_pieces.scopes_slug(scope)}",
                pieces=[{**p, "path": os.path.relpath(p["path"], suite_dir)} for p in pieces],
                piece_outputs=outputs, sweep={"scope": ["full"] + [s.text() for s in scope]})


def state_path(package_file):
    """Beside a training step's package (<stem>.pt2): its initial state, <stem>.state.pt."""
    return str(package_file).removesuffix(".pt2") + ".state.pt"


def write_suite(path, new_cases, args):
    """The cases into the suite at `path` (suites.add_cases): a new suite unless --append finds one."""
    fresh = None
    if not (args.append and os.path.exists(path)):
        fresh = suites.new_suite(args.suite_name, args.suite_description or
                                 "Your own models, eager and captured. The model files are not committed: each "
                                 "case's description is the scripts/export_model.py command that makes its file.",
                                 SUITE_DEFAULTS)
    suites.add_cases(path, new_cases, fresh)


def export_torchscript(case, model, inputs, path, times):
    import torch

    with times.phase("trace_s"):
        module = trace_torchscript(case, model, inputs)
    with times.phase("save_s"):
        torch.jit.save(module, str(path))


def trace_torchscript(case, model, inputs):
    import torch

    if case.mode != "train":
        model.eval()
        with torch.no_grad(), trace_fixes.traceable(case):
            return torch.jit.trace(model, tuple(inputs), check_trace=False, strict=False)
    model.train()
    if not case.own_loss:  # the model with its loss (forward(*args)) is traced: torch.jit.script does not take it
        try:
            return torch.jit.script(model)
        except Exception as e:  # noqa: BLE001 - many models do not script; a trace in train mode works for them
            print(f"{PROG}: {case.model}: torch.jit.script failed ({str(e).splitlines()[0]}); tracing in train mode",
                  file=sys.stderr)
    return torch.jit.trace(model, tuple(inputs), check_trace=False, strict=False)


def package_configs(case, settings, read_bytes=None, weights_bytes=None):
    """Inductor's settings (--inductor-config) and the metadata graphbench reads: the recorded inputs,
    and the bytes a step reads for the roofline (`weights_bytes`: to which graphbench adds the state
    inputs at the case's sizes). No metadata where this PyTorch cannot record it."""
    import torch._inductor

    configs = dict(settings)
    if hasattr(torch._inductor.config.aot_inductor, "metadata"):
        given = {"graphbench_read_bytes": read_bytes, "graphbench_weights_bytes": weights_bytes}
        configs["aot_inductor.metadata"] = {"graphbench_inputs": json.dumps(case.recorded_inputs()),
                                            **{key: str(value) for key, value in given.items() if value is not None}}
    return configs


def export_aoti_train_step(case, model, inputs, path, device, settings, channels_last):
    """One whole training step as a package, and its initial state beside it (train_step.py)."""
    import torch

    from . import train_step

    model.eval()  # the output's shape, for the target, without touching BatchNorm's statistics
    with torch.no_grad():
        output = model(*inputs)
    target = model_zoo.make_target(case, output, device)
    scores = model_zoo.first_tensor(output)
    classes = scores.shape[-1] if scores.dim() else 0  # a model with its own loss returns a scalar
    configs = package_configs(case, settings)  # the step adds its state's bytes
    if "aot_inductor.metadata" not in configs:
        raise RuntimeError(f"this PyTorch ({torch.__version__}) cannot record a package's metadata, which a training "
                           "step's package needs (its state and its target)")
    state = train_step.export_package(case, model, inputs, target, classes, path, configs, channels_last)
    train_step.save_state(state, state_path(path))


def export_aoti(case, model, inputs, path, settings, times):
    import torch
    import torch._inductor

    model.eval()
    # The roofline: the weights, and a KV cache given as state inputs (the step reads all of it).
    state_bytes = sum(t.numel() * t.element_size() for t, spec in zip(inputs, case.inputs()) if spec.get("role") == "state")
    weights_bytes = model_zoo.read_bytes(model)
    configs = package_configs(case, settings, weights_bytes + state_bytes, weights_bytes)
    dynamic_shapes = shapes_for_signature(model.forward, case.dynamic_shapes())
    with torch.no_grad():
        # A decoding step mutates its cache through objects that are not modules (transformers'
        # StaticCache layers): only the strict (Dynamo) tracer follows them to the tensors they are.
        with times.phase("export_s"):
            exported = torch.export.export(model, tuple(inputs), strict=case.decode, dynamic_shapes=dynamic_shapes)
        compiler, package = export_times.inductor_owners()
        with times.calls_of(compiler, "compile", "cpp_compile_s", is_classmethod=True), \
                times.calls_of(package, "package_aoti", "package_s"), times.phase("compile_s"):
            torch._inductor.aoti_compile_and_package(exported, package_path=str(path), inductor_configs=configs)
        times.finish_compile()


def shapes_for_signature(forward, flat):
    """torch.export's dynamic_shapes for `forward`, from one entry per input: it matches them to
    forward's parameters, so the inputs a *args parameter takes (a decoding step's caches,
    forward(input_ids, cache_position, *caches)) go in one tuple. None stays None."""
    if flat is None:
        return None
    for k, parameter in enumerate(inspect.signature(forward).parameters.values()):
        if parameter.kind == inspect.Parameter.VAR_POSITIONAL:
            return tuple(flat[:k]) + (tuple(flat[k:]),)
    return tuple(flat)


def export(case, fmt, path, device, settings, channels_last=False):
    """Writes one model file from a fresh model (one export cannot affect another); returns where its
    time went and its sizes: the file's bytes and the weights' (a KV cache given as state is neither)."""
    import torch

    times = export_times.ExportTimes()
    with times.phase("total_s"):
        with times.phase("build_s"):
            model = model_zoo.build_model(case, device)
        sizes = {"weights_bytes": model_zoo.read_bytes(model)}
        with times.phase("inputs_s"):
            inputs = model_zoo.make_inputs(case, device)
        print(f"{PROG}: {case.model} batch {case.batch} -> {path}", file=sys.stderr)
        if fmt == "pt":
            export_torchscript(case, model, inputs, path, times)
        elif case.mode == "train":
            with times.phase("train_step_s"):
                export_aoti_train_step(case, model, inputs, path, device, settings, channels_last)
        else:
            export_aoti(case, model, inputs, path, settings, times)
        del model
        if device.startswith("cuda"):
            torch.cuda.empty_cache()
    sizes["file_bytes"] = Path(path).stat().st_size
    return times, sizes


def piece_path(whole_file, scope, k, suffix="pt"):
    """Piece k of a model split at `scope`, beside the whole model's file: <stem>.<scope>.piece<k>.pt
    (an AOTInductor piece: <stem>.<scope>.inductor.piece<k>.pt2)."""
    whole_file = str(whole_file).removesuffix(".pt")
    kind = ".inductor" if suffix == "pt2" else ""
    return Path(f"{whole_file}.{model_pieces.scopes_slug(scope)}{kind}.piece{k}.{suffix}")


def export_piece(piece, k, args, scope, whole_file, inductor=None):
    """Writes piece k traced on `args` as TorchScript, or with `inductor` (Inductor's settings) a
    capturable one as an AOTInductor package. Returns its file and what runs it as the file does (for
    a package its exported graph: Python's aoti_load_package crashed where graphbench's loader did
    not, so graphbench checks the package itself; docs/models.md)."""
    import torch

    if inductor is not None and piece.tag.get("capturable", True):
        import torch._inductor

        path = piece_path(whole_file, scope, k, "pt2")
        exported = torch.export.export(piece.module, tuple(args), strict=False)
        torch._inductor.aoti_compile_and_package(exported, package_path=str(path), inductor_configs=dict(inductor))
        return path, exported.module()
    path = piece_path(whole_file, scope, k)
    traced = torch.jit.trace(piece.module, tuple(args), check_trace=False, strict=False)
    torch.jit.save(traced, str(path))
    return path, traced


def default_tolerance(case, tolerances):
    """The tolerance graphbench compares with (model_case.cpp's model_tolerance): by dtype, or given."""
    rtol, atol = {"float16": (1e-2, 1e-3), "bfloat16": (5e-2, 1e-2)}.get(case.dtype, (1e-3, 1e-4))
    return (tolerances.get("rtol") or rtol), (tolerances.get("atol") or atol)


def export_pieces(case, scope, whole_file, device, tolerances, inductor=None, one_package=False):
    """Splits the model at the scope's boundaries, writes each piece beside the whole model's file and
    returns the case's "pieces" and "piece_outputs" (paths absolute); RuntimeError where the chain of
    written pieces differs from the whole model (mode train: one forward each from the same random
    state). With `one_package`, the compiled pieces are named models ("piece<K>") of one package."""
    import contextlib

    import torch

    train = case.mode == "train"
    model = model_zoo.build_model(case, device).train(train)
    inputs = model_zoo.make_inputs(case, device)
    print(f"{PROG}: {case.model} batch {case.batch} split at --scope {model_pieces.scopes_text(scope)}"
          f"{' (train mode)' if train else ''}", file=sys.stderr)
    with (contextlib.nullcontext() if train else torch.no_grad()), trace_fixes.traceable(case):
        split = model_pieces.split(model, inputs, scope, case.model)
        if train:
            model_pieces.check_params_apart(split, case.model)
        if any(s.kind == "auto" for s in scope):
            print(f"{PROG}: what cannot be captured: " + (
                "found on the device (each op run once under CUDA's sync debug mode)" if split.capturability == "device"
                else f"no GPU here ({device}): judged from graphbench's list of ops (pieces.py), which a "
                     "[cuda] test holds against the device's answer"), file=sys.stderr)
        if split.breaks:
            # Modules whose Python control flow broke torch.compile's graph are scripted in their
            # pieces; the whole model's file, traced, would keep only the branch its example took:
            # traced again with those modules scripted, so that it runs every branch as the chain does.
            from . import dynamo_trace

            with dynamo_trace.scripted_modules(model, split.breaks):
                torch.jit.save(torch.jit.trace(model, tuple(inputs), check_trace=False, strict=False), str(whole_file))
            by_reason = {}
            for path, why in split.breaks.items():
                by_reason.setdefault(why, []).append(path)
            said = "; ".join(", ".join(paths) + f": {why}" for why, paths in by_reason.items())
            print(f"{PROG}: traced by torch.compile's tracer; run eagerly as TorchScript pieces, whole: {said}",
                  file=sys.stderr)
        torch.manual_seed(case.seed)
        expected = [t.detach() for t in model_zoo.flat_tensors(model(*inputs))]
        pieces, outputs, traced_pieces = [], [], []
        one = {}  # one_package: {model name: AOTInductor's files} of every compiled piece
        package = Path(str(piece_path(whole_file, scope, 0, "pt2")).replace(".piece0.pt2", ".pt2"))
        for k, piece in enumerate(split.pieces):
            args = [model_pieces.resolve(ref, inputs, outputs) for ref in piece.inputs]
            entry = {}
            if one_package and inductor is not None and piece.tag.get("capturable", True):
                import torch._inductor

                exported = torch.export.export(piece.module, tuple(args), strict=False)
                one[f"piece{k}"] = torch._inductor.aot_compile(exported.module(), tuple(args),
                                                               options={**inductor, "aot_inductor.package": True})
                path, traced = package, exported.module()
                entry["model"] = f"piece{k}"
            else:
                path, traced = export_piece(piece, k, args, scope, whole_file, inductor)
                suites.write_manifest(path, {**case.to_json(), "scope": model_pieces.scopes_text(scope), "piece": k})
            result = traced(*args)
            outputs.append(tuple(t.detach() for t in model_zoo.flat_tensors(result)))
            if len(outputs[-1]) != piece.outputs:
                raise RuntimeError(f"piece {k} returns {len(outputs[-1])} tensors, {piece.outputs} when split")
            traced_pieces.append(traced)
            pieces.append({"path": str(path.resolve()), "inputs": piece.inputs, "outputs": piece.outputs, **piece.tag,
                           **entry})
        if one:
            from torch._inductor.package import package_aoti

            package_aoti(str(package), one)
            suites.write_manifest(package, {**case.to_json(), "scope": model_pieces.scopes_text(scope),
                                            "pieces": sorted(one)})
        # The chain again from the whole model's random state: tracing drew random numbers between
        # the pieces' calls (dropout in train mode).
        torch.manual_seed(case.seed)
        got = model_pieces.run_chain(traced_pieces, [p.inputs for p in split.pieces], split.outputs, inputs)
    check_outputs(got, expected, *default_tolerance(case, tolerances), "the chain of pieces differs from the whole model")
    print(f"{PROG}: {len(pieces)} pieces, their chain equals the whole model (largest difference "
          f"{largest_difference(got, expected):.3g})", file=sys.stderr)
    del model
    return pieces, split.outputs


def export_at_branches(case, scope, whole_file, device, tolerances, suite_dir, command):
    """--scope auto on an inference model whose own forward branches on a value it computed: the
    cases of its pieces between the branches (branch_export.py); None for every other model."""
    if case.mode == "train" or not any(s.kind == "auto" for s in scope):
        return None
    from . import branch_export

    rtol, atol = default_tolerance(case, tolerances)
    return branch_export.export_branches(case, whole_file, device, rtol, atol, suite_dir, command)


def made_by_arguments(argv):
    """The arguments that decide what the files are: without --dry-run and the suite's description."""
    out, rest = [], iter(argv)
    for a in rest:
        if a == "--suite-description":
            next(rest, None)  # its value
        elif a != "--dry-run" and not a.startswith("--suite-description="):
            out.append(a)
    return out


def say_failed(what, e):
    """One export or split that failed (`what`), and why; the others go on."""
    print(f"{PROG}: error: {what} failed: {type(e).__name__}: {e}", file=sys.stderr)


def main(argv):
    args = parse_args(argv)
    cases = model_cases(args)
    suite_path = args.suite or os.path.join(args.output, "suite.json")
    suite_dir = os.path.dirname(os.path.abspath(suite_path))
    made_by = made_by_arguments(argv)
    command = " ".join(shlex.quote(a) for a in ["python3", "scripts/export_model.py", *made_by])
    Path(args.output).mkdir(parents=True, exist_ok=True)
    device = args.device
    entries = []
    failed = False
    for case in cases:
        for fmt in args.format:
            # With --scope the whole model is TorchScript (the chain is compared with it); --format pt2
            # says how the pieces are made (Inductor), and the case's name says so.
            compiled_pieces = args.scope is not None and fmt == "pt2"
            if compiled_pieces:
                fmt = "pt"
            path = Path(args.output) / f"{case.stem()}.{fmt}"
            times, sizes = None, None
            if not args.dry_run:
                if device is None:
                    import torch

                    device = "cuda" if torch.cuda.is_available() else "cpu"
                try:
                    times, sizes = export(case, fmt, path, device, dict(args.inductor_config), args.channels_last)
                except BadInput:
                    raise
                except Exception as e:  # noqa: BLE001 - say which export failed, go on with the others
                    say_failed(f"exporting {case.model} (batch {case.batch}) as .{fmt}", e)
                    failed = True
                    continue
            suites.write_manifest(path, model_zoo.manifest(case, times.to_json() if times else None, sizes))
            tolerances = {"rtol": args.rtol, "atol": args.atol}
            entry = suite_case(case, fmt, os.path.abspath(path), suite_dir, command, tolerances)
            if args.scope is not None:
                try:
                    branched = export_at_branches(case, args.scope, path, device, tolerances, suite_dir, command)
                    if branched is not None:
                        entries.extend(branched)
                        continue
                    pieces, outputs = export_pieces(case, args.scope, path, device, tolerances,
                                                    dict(args.inductor_config) if compiled_pieces else None,
                                                    args.pieces_package == "one")
                except model_pieces.BadScope:
                    raise
                except Exception as e:  # noqa: BLE001 - say which split failed, go on with the others
                    scopes = model_pieces.scopes_text(args.scope)
                    say_failed(f"splitting {case.model} (batch {case.batch}) at --scope {scopes}", e)
                    failed = True
                    continue
                entry = pieces_case(entry, args.scope, pieces, outputs, suite_dir, compiled_pieces)
            entries.append(entry)
    write_suite(suite_path, entries, args)
    print(f"{PROG}: wrote {len(entries)} case(s) to {suite_path}", file=sys.stderr)
    return 1 if failed else 0
