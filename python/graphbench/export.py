"""Export models for graphbench's model workloads, and a suite file that runs them.

    python3 scripts/export_model.py torchvision:resnet50 --batch 1,32 --format pt,pt2 -o models/
    build/graphbench run --config models/suite.json

Writes, per model and batch size, into the output folder:
    <stem>.pt         TorchScript (workload torchscript): torch.jit.trace of the model in eval mode,
                      or for --mode train torch.jit.script (a trace in train mode if scripting fails)
    <stem>.pt2        an AOTInductor package (workload aoti): torch.export, then
                      torch._inductor.aoti_compile_and_package; the package records its inputs.
                      With --mode train, one whole training step (forward, loss, backward and the
                      optimizer's update, traced by make_fx: python/graphbench/train_step.py), its state
                      (params, buffers, optimizer state) inputs that the step updates in place, and
    <stem>.state.pt   beside it, that state's initial values (TorchScript buffers s0, s1, ...)
    <file>.json       beside each file: what made it (model name, batch, ...), read by
                      scripts/python_baseline.py to build the same model in Python, and where
                      the export's time went ("export_times": python/graphbench/export_times.py)
and a suite file (default <output>/suite.json; --suite PATH) with one case per file, whose paths
are relative to the suite file. --append adds the cases to an existing suite file (replacing
cases of the same name), so that several commands can build one suite.

Models: torchvision:NAME, timm:NAME, hf:MODEL_TYPE: an encoder built from its config (hf:bert is
BERT-base), or a decoder-only model (hf:gpt2, hf:llama, hf:qwen2, hf:mistral, ...): its forward over
--seq tokens with the KV cache off (the prefill), or with --decode one decoding step: one token per
sequence, a static KV cache of --max-seq positions written at position --pos (python/graphbench/models/decoders.py).
Your own code: py:FILE.py:CALLABLE or py:MODULE:CALLABLE (e.g. py:examples/conv_attention.py:make_model)
names a callable that returns the model and example inputs, (model, inputs) or (model, inputs, loss)
(python/graphbench/models/own_code.py); --batch sets its `batch` keyword, the inputs' shapes, dtypes and int64 ranges
(--input-range) are recorded from the examples, and --mode train uses its own loss where it returns
one (--loss otherwise). Calling it imports torch, under --dry-run too.
Pieces: --scope layer|attention-out|modules=REGEX|auto splits the model with
torch.fx at the scope's boundaries, or with torch.compile's tracer where torch.fx cannot trace it
(python/graphbench/dynamo_trace.py: inference) (python/graphbench/pieces.py; several scopes, comma-separated, split at
the boundaries of each, so that one chain serves them all: --scope layer,attention-out) and writes,
beside the whole model's <stem>.pt, one <stem>.<scope>.piece<K>.pt per piece. Pieces are TorchScript
only: --format defaults to pt with --scope, and pt2 is refused (AOTInductor packages of pieces crash
when loaded with PyTorch 2.11; docs/scopes.md). The suite's case (named <stem>-pt-<scope>)
keeps the whole model as `path` and names the pieces in order with their wiring (`pieces`,
`piece_outputs`), and runs full beside the scope (`"sweep": {"scope": ["full", SCOPE]}`). The chain of traced pieces is checked against the whole model before the case is
written. With --mode train the pieces are traced in train mode, their parameters trainable, and the
case is a whole training step over the chain (the loss and the optimizer as for the whole model). A
model that neither tracer can split (a branch on a tensor's value in the model's own forward, a
training step torch.fx cannot trace), or that a scope leaves in one piece, exits 2 naming why.
Weights are random: nothing is downloaded. An AOTInductor package records the bytes a step must read
(parameters and KV cache), graphbench's roofline; a TorchScript file's are read from the module. Runs wherever PyTorch is installed (with
torchvision, timm or transformers for their models); --dry-run writes only the suite and needs
none of them. Exit codes: 0 written, 1 an export failed (the others are still written, and the suite
holds their cases), 2 bad arguments.
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
from .errors import EXIT_BAD_INPUT, BadInput
from .output_match import outputs_match
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
    p.add_argument("--input-range", type=input_range, action="append", default=[], metavar="[N=]LO,HI",
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


def input_range(text):
    try:
        return own_code.parse_input_range(text)
    except BadInput as e:
        raise argparse.ArgumentTypeError(str(e))


def model_cases(args):
    own = [m for m in args.models if m.startswith("py:")]
    if own and args.dtype:
        raise BadInput(f"--dtype: {own[0]} keeps the dtypes its code makes (make the model and inputs in the "
                                 "dtype to measure)")
    if args.input_range and not own:
        raise BadInput("--input-range sets the int64 inputs of a py: model: give one with it")
    cli_ranges = {index: (lo, hi) for index, lo, hi in args.input_range}
    cases = []
    for model in args.models:
        # A py: model without --batch is made at its callable's own batch (describe_own_code).
        for batch in args.batch or [None if model.startswith("py:") else 1]:
            case = model_zoo.ModelCase(model=model, batch=batch or 1, mode=args.mode, dtype=args.dtype or "float32",
                                       image_size=args.image_size, seq=args.seq, token_high=args.token_high,
                                       hf_config=dict(args.hf_config), loss=args.loss, optimizer=args.optimizer,
                                       lr=args.lr, momentum=args.momentum, seed=args.seed, decode=args.decode,
                                       max_seq=1024 if args.max_seq is None else args.max_seq,
                                       pos=512 if args.pos is None else args.pos,
                                       dynamic_batch=args.dynamic_batch, dynamic_cache=args.dynamic_cache,
                                       cache_as_state=args.cache_as_state,
                                       origin_dir=os.getcwd() if model.startswith("py:") else "")
            case.check()
            model_zoo.check_decoder(case)
            if case.cache_as_state:
                case.inputs()  # the cache's shape, from the model's config: a bad one stops here
            model_zoo.check_own_code(case)  # before any code runs, so that a typo is found at once
            cases.append((case, batch is not None))
    for case, batch_given in cases:
        if case.source == "py":
            model_zoo.describe_own_code(case, batch_given, cli_ranges)
            case.check()
    return [case for case, _ in cases]


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
    for key in ("rtol", "atol"):
        if tolerances.get(key) is not None:
            entry[key] = tolerances[key]
    if case.mode == "train" and fmt == "pt2":
        # The loss and the optimizer are inside the package; the case names its initial state.
        entry.update({"mode": "train", "state": os.path.relpath(state_path(model_file), suite_dir)})
    elif case.mode == "train":
        entry.update({"mode": "train", "loss": case.loss, "optimizer": case.optimizer, "lr": case.lr})
        if case.optimizer == "sgd":
            entry["momentum"] = case.momentum
    return entry


def pieces_case(entry, scope, pieces, outputs, suite_dir, compiled=False):
    """The whole model's case turned into the chain of its pieces: `path` stays the whole model
    (graphbench compares the chain with it), `pieces` and `piece_outputs` say the chain. Pieces
    compiled by Inductor: the case is named <stem>-inductor-<scope>."""
    entry = dict(entry)
    stem = entry["name"][:-len("-pt")] if compiled and entry["name"].endswith("-pt") else entry["name"]
    entry["name"] = f"{stem}{'-inductor' if compiled else ''}-{model_pieces.scopes_slug(scope)}"
    entry["pieces"] = [{**p, "path": os.path.relpath(p["path"], suite_dir)} for p in pieces]
    entry["piece_outputs"] = outputs
    entry["sweep"] = {"scope": scope_sweep(scope)}
    return entry


def scope_sweep(scope):
    """The scopes a split model's case runs: full (the whole model, the baseline each scope's share
    of the gain is read against) beside each scope it was split at, so that the run a user starts
    first with the suite shows the scope that works (`--sweep scope=...` on the command line still
    replaces it)."""
    return ["full"] + [s.text() for s in scope]


def state_path(package_file):
    """Beside a training step's package (<stem>.pt2): its initial state, <stem>.state.pt."""
    package_file = str(package_file)
    return (package_file[:-len(".pt2")] if package_file.endswith(".pt2") else package_file) + ".state.pt"


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

    if case.mode == "train" and case.own_loss:
        model.train()  # the model with its loss (forward(*args)), which torch.jit.script does not take
        module = torch.jit.trace(model, tuple(inputs), check_trace=False, strict=False)
    elif case.mode == "train":
        model.train()
        try:
            module = torch.jit.script(model)
        except Exception as e:  # noqa: BLE001 - many models do not script; a trace in train mode works for them
            print(f"{PROG}: {case.model}: torch.jit.script failed ({str(e).splitlines()[0]}); tracing in train mode",
                  file=sys.stderr)
            module = torch.jit.trace(model, tuple(inputs), check_trace=False, strict=False)
    else:
        model.eval()
        with torch.no_grad(), trace_fixes.traceable(case):
            module = torch.jit.trace(model, tuple(inputs), check_trace=False, strict=False)
    return module


def package_configs(case, settings, read_bytes=None, weights_bytes=None):
    """Inductor's settings for a package (--inductor-config), and the metadata graphbench reads:
    graphbench compares a case's inputs with the recorded ones before it runs the package, and
    takes the bytes a step must read (`read_bytes`, where given) as the case's roofline, or, where
    `weights_bytes` is given, those plus its state inputs at the case's own sizes (a KV cache swept
    over batch or length). No metadata where this PyTorch cannot record it."""
    import torch._inductor

    configs = dict(settings)
    if hasattr(torch._inductor.config.aot_inductor, "metadata"):
        configs["aot_inductor.metadata"] = {"graphbench_inputs": json.dumps(case.recorded_inputs())}
        if read_bytes is not None:
            configs["aot_inductor.metadata"]["graphbench_read_bytes"] = str(read_bytes)
        if weights_bytes is not None:
            configs["aot_inductor.metadata"]["graphbench_weights_bytes"] = str(weights_bytes)
    return configs


def export_aoti_train_step(case, model, inputs, path, device, settings, channels_last):
    """One whole training step as a package, and its initial state beside it (python/graphbench/train_step.py)."""
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
    """Writes one model file; a fresh model each time, so that one export cannot affect another.
    Returns where its time went (export_times.py) and its sizes: the file's bytes beside the bytes
    of the model's weights (its parameters and buffers; a KV cache given as state is neither)."""
    import torch

    times = export_times.ExportTimes()
    with times.phase("total_s"):
        with times.phase("build_s"):
            model = model_zoo.build_model(case, device)
            if not case.decode:  # a decoding step is built on its device, its cache registered as it is
                model = model.to(device)
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
    whole_file = str(whole_file)
    if whole_file.endswith(".pt"):
        whole_file = whole_file[:-len(".pt")]
    kind = ".inductor" if suffix == "pt2" else ""
    return Path(f"{whole_file}.{model_pieces.scopes_slug(scope)}{kind}.piece{k}.{suffix}")


def export_piece(piece, k, args, scope, whole_file, inductor=None):
    """Writes piece k, traced on `args` as TorchScript, or, where `inductor` (Inductor's settings) is
    given and the piece can be captured, compiled by AOTInductor (torch.export of the piece, then
    aoti_compile_and_package; inference). Returns its file and what runs it as the file does: for a
    package, the exported graph that Inductor compiled, run by PyTorch (the package itself is loaded
    and checked against the whole model by graphbench, whose loader is the one that runs it: on a GPU
    machine Python's aoti_load_package crashed where graphbench's loaded the same file; docs/models.md)."""
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
    """Splits the model at the scope's boundaries (model_pieces.py), writes each piece beside the
    whole model's file (export_piece) and returns the case's "pieces" and "piece_outputs" (paths
    absolute). The chain of written pieces is run on the model's inputs and compared with the whole
    model's output: a chain that differs is an error (RuntimeError), and nothing is returned.
    Mode train: the pieces are traced in train mode with their parameters trainable (BatchNorm
    normalises by the batch, dropout draws), each parameter in one piece only; the chain and the
    whole model are compared on one forward each from the same random state. `inductor` (Inductor's
    settings): the capturable pieces compiled as AOTInductor packages, a package each, or with
    `one_package` every one a named model ("piece<K>") of one package <stem>.<scope>.inductor.pt2."""
    import contextlib

    import torch

    train = case.mode == "train"
    model = model_zoo.build_model(case, device)
    if not case.decode:
        model = model.to(device)
    model.train(train)
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
        got = [t.detach() for t in model_pieces.run_chain(traced_pieces, [p.inputs for p in split.pieces],
                                                          split.outputs, inputs)]
    if len(got) != len(expected):
        raise RuntimeError(f"the chain of pieces returns {len(got)} tensors, the whole model {len(expected)}")
    rtol, atol = default_tolerance(case, tolerances)
    for i, (a, b) in enumerate(zip(got, expected)):
        if a.shape != b.shape or not outputs_match(b, a, rtol, atol):
            raise RuntimeError(f"the chain of pieces differs from the whole model at output {i} (largest difference "
                               f"{model_pieces.largest_difference([a], [b]) if a.shape == b.shape else 'shape'}, "
                               f"rtol {rtol}, atol {atol}; float16 and bfloat16: 4 rounding steps at the output's "
                               f"largest magnitude, 1 step RMS beyond the tolerances)")
    print(f"{PROG}: {len(pieces)} pieces, their chain equals the whole model (largest difference "
          f"{model_pieces.largest_difference(got, expected):.3g})", file=sys.stderr)
    del model
    return pieces, split.outputs


def export_at_branches(case, scope, whole_file, device, tolerances, suite_dir, command):
    """--scope auto on an inference model whose own forward branches on a value it computed: the cases
    of its pieces between the branches (branch_export.py), or None for every other model."""
    if case.mode == "train" or not any(s.kind == "auto" for s in scope):
        return None
    from . import branch_export

    rtol, atol = default_tolerance(case, tolerances)
    return branch_export.export_branches(case, whole_file, device, rtol, atol, suite_dir, command)


def made_by_arguments(argv):
    """The arguments that decide what the files are: without --dry-run and the suite's description."""
    out = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--suite-description":
            skip = True
        elif a != "--dry-run" and not a.startswith("--suite-description="):
            out.append(a)
    return out


def say_failed(what, e):
    """One export or split that failed (`what`), and why; the others go on."""
    print(f"{PROG}: error: {what} failed: {type(e).__name__}: {e}", file=sys.stderr)


def main(argv):
    args = parse_args(argv)
    try:
        cases = model_cases(args)
    except BadInput as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
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
                except BadInput as e:
                    print(f"{PROG}: error: {e}", file=sys.stderr)
                    return EXIT_BAD_INPUT
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
                except model_pieces.BadScope as e:
                    print(f"{PROG}: error: {e}", file=sys.stderr)
                    return EXIT_BAD_INPUT
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
