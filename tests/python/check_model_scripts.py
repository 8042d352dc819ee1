#!/usr/bin/env python3
"""Checks of the model scripts that need no PyTorch (the parts that work out names, inputs and
suite files): scripts/models-suite.sh --dry-run writes configs/models.json exactly as committed,
export_model.py refuses bad arguments with exit code 2, and python_baseline.py reads a suite's
manifests and puts graphbench's figures beside its own.

    check_model_scripts.py SOURCE_DIR WORK_DIR
"""

import json
import os
import subprocess
import sys

from check_support import check, finish, fresh_dir, run_in_process


def check_suite_script(source_dir, work_dir, script, suite):
    """scripts/SCRIPT --dry-run writes configs/SUITE exactly as committed."""
    run = subprocess.run([os.path.join(source_dir, "scripts", script), "--dry-run", "models", f"configs/{suite}"],
                         cwd=work_dir, capture_output=True, text=True, env={**os.environ, "PYTHON": sys.executable})
    check(run.returncode == 0, f"{script} --dry-run exit code {run.returncode}: {run.stderr}")
    with open(os.path.join(source_dir, "configs", suite), encoding="utf-8") as f:
        committed = f.read()
    with open(os.path.join(work_dir, "configs", suite), encoding="utf-8") as f:
        generated = f.read()
    check(generated == committed, f"configs/{suite} differs from what scripts/{script} writes")


def check_sweep_script(source_dir, work_dir):
    """scripts/sweep-models.sh --dry-run names the model file of every point configs/sweeps.json
    sweeps a model case over, and no other."""
    out = os.path.join(work_dir, "sweep-models")
    run = subprocess.run([os.path.join(source_dir, "scripts", "sweep-models.sh"), "--dry-run", out],
                         cwd=work_dir, capture_output=True, text=True, env={**os.environ, "PYTHON": sys.executable})
    check(run.returncode == 0, f"sweep-models.sh --dry-run exit code {run.returncode}: {run.stderr}")
    made = sorted(name[:-len(".json")] for name in os.listdir(out) if name.endswith(".json")) if os.path.isdir(out) else []
    with open(os.path.join(source_dir, "configs", "sweeps.json"), encoding="utf-8") as f:
        suite = json.load(f)
    wanted = []
    for case in suite["cases"]:
        if case["workload"] not in ("aoti", "torchscript"):
            continue
        (axis, values), = case["sweep"].items()
        wanted += [os.path.basename(case["path"]).replace("{" + axis + "}", str(v)) for v in values]
    wanted = sorted(set(wanted))  # a package with a dynamic batch serves every point
    check(made == wanted, f"sweep-models.sh makes {made}, configs/sweeps.json needs {sorted(wanted)}")


def check_pieces_suite(work_dir, python_baseline, model_zoo):
    """A suite's case of pieces: its scope read from its first piece's manifest; without one, exit 2
    naming the manifest."""
    folder = os.path.join(work_dir, "pieces")
    os.makedirs(folder)
    case = model_zoo.ModelCase("py:examples/conv_attention.py:make_model", 1)
    for name, extra in (("m.pt", {}),
                        ("m.layer+attention-out.piece0.pt", {"scope": "layer,attention-out", "piece": 0})):
        with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
            json.dump({**case.to_json(), **extra}, f)
    pieces_case = {"name": "m-pt-layer+attention-out", "workload": "torchscript", "path": "m.pt",
                   "pieces": [{"path": "m.layer+attention-out.piece0.pt"}]}
    suite = os.path.join(folder, "suite.json")
    with open(suite, "w", encoding="utf-8") as f:
        json.dump({"cases": [pieces_case, {"name": "m-pt", "workload": "torchscript", "path": "m.pt"}]}, f)
    read = python_baseline.cases_from_suite(suite)
    scopes = [[s.text() for s in scope] if scope else None for _, _, scope in read]
    check(scopes == [["layer", "attention-out"], None], f"the scopes read from the suite: {scopes}")
    os.remove(os.path.join(folder, "m.layer+attention-out.piece0.pt.json"))
    try:
        python_baseline.cases_from_suite(suite)
        check(False, "a case of pieces without its manifest accepted")
    except model_zoo.BadInput as e:
        check("m.layer+attention-out.piece0.pt.json: cannot read the scope of case m-pt-layer+attention-out" in str(e),
              f"message for a missing manifest: {e}")


def main(source_dir, work_dir):
    source_dir = os.path.abspath(source_dir)
    scripts = os.path.join(source_dir, "scripts")
    from graphbench.models import zoo as model_zoo
    from graphbench.peers import baseline as python_baseline

    fresh_dir(work_dir)

    # The committed suites are what their export commands write.
    check_suite_script(source_dir, work_dir, "models-suite.sh", "models.json")

    # Names and inputs.
    check(model_zoo.ModelCase("torchvision:resnet50", 1).stem() == "resnet50-b1", "stem of resnet50")
    check(model_zoo.ModelCase("hf:bert", 2, seq=64).stem() == "hf-bert-b2-s64", "stem of hf:bert")
    check(model_zoo.ModelCase("timm:vit_base_patch16_224", 8, mode="train", dtype="float16").stem()
          == "timm-vit_base_patch16_224-b8-float16-train", "stem of a timm training case")
    check(model_zoo.ModelCase("hf:bert", 1, seq=16, token_high=99).inputs()
          == [{"shape": [1, 16], "dtype": "int64", "range": [0, 99]}], "inputs of an encoder")
    # torch.export matches dynamic shapes to forward's parameters: a *caches parameter takes one tuple.
    from graphbench import export as export_model
    from graphbench import pieces as model_pieces

    # Pieces beside the whole model's file; the case of the chain keeps the whole model as its path.
    layer = model_pieces.parse_scopes("layer,attention-out")
    check(str(export_model.piece_path("out/m-b1.pt", layer, 3)) == "out/m-b1.layer+attention-out.piece3.pt",
          f"a piece's path: {export_model.piece_path('out/m-b1.pt', layer, 3)}")
    whole = {"name": "m-b1-pt", "workload": "torchscript", "path": "m-b1.pt", "inputs": [{"shape": [1, 4]}]}
    split = export_model.pieces_case(whole, layer, [
        {"path": os.path.join(work_dir, "m-b1.layer+attention-out.piece0.pt"), "inputs": ["input0"], "outputs": 1},
        {"path": os.path.join(work_dir, "m-b1.layer+attention-out.piece1.pt"), "inputs": ["piece0.out0"],
         "outputs": 1}], ["piece1.out0"], work_dir)
    check(split["name"] == "m-b1-pt-layer+attention-out" and split["workload"] == "torchscript" and
          split["path"] == "m-b1.pt", f"the case of pieces: {split}")
    check([p["path"] for p in split["pieces"]] == ["m-b1.layer+attention-out.piece0.pt",
                                                   "m-b1.layer+attention-out.piece1.pt"],
          f"its pieces' paths, relative to the suite: {split['pieces']}")
    # The suite of a --scope export runs that scope beside full: the first run shows the scope that works.
    check(split.get("sweep") == {"scope": ["full", "layer", "attention-out"]},
          f"the case of pieces runs its scopes beside full: {split.get('sweep')}")
    auto = export_model.pieces_case(whole, model_pieces.parse_scopes("auto"), [], [], work_dir)
    check(auto.get("sweep") == {"scope": ["full", "auto"]}, f"a --scope auto case runs auto: {auto.get('sweep')}")

    def step(input_ids, cache_position, *caches):
        return input_ids

    def plain(x, y):
        return x

    check(export_model.shapes_for_signature(step, ("b", None, "b", "b")) == ("b", None, ("b", "b")),
          "dynamic shapes of forward(input_ids, cache_position, *caches)")
    check(export_model.shapes_for_signature(plain, ["b", None]) == ("b", None), "dynamic shapes of forward(x, y)")
    check(export_model.shapes_for_signature(plain, None) is None, "no dynamic shapes")
    # Python's replay copies in every input but the state ones (a KV cache stays in the graph's buffers).
    own = model_zoo.ModelCase("py:examples/tiny_decode.py:make_model", 2, example_inputs=[
        {"shape": [2, 1], "dtype": "int64", "range": [0, 9]}, {"shape": [1], "dtype": "int64", "range": [5, 6]},
        {"shape": [2, 2, 8, 4], "dtype": "float32", "role": "state", "seed": 3, "scale": 0.5}])
    check(python_baseline.fed_positions(own) == [0, 1], "the inputs Python's replay copies in")
    # A decoding step whose cache is state: its inputs come from the model's config (transformers).
    state_args = ["hf:llama", "--hf-config", "num_hidden_layers=2", "--hf-config", "num_key_value_heads=2",
                  "--decode", "--cache-as-state", "--max-seq", "64", "--pos", "3", "--batch", "2", "--dynamic-batch",
                  "8", "--format", "pt2", "--dry-run", "-o", os.path.join(work_dir, "state")]
    run = subprocess.run([sys.executable, os.path.join(scripts, "export_model.py"), *state_args],
                         capture_output=True, text=True)
    try:
        import transformers  # noqa: F401
    except ImportError:
        check(run.returncode == 2 and "--cache-as-state: the shape of hf:llama's KV cache comes from its config, which "
              "needs transformers" in run.stderr, f"--cache-as-state without transformers: exit {run.returncode}, "
              f"{run.stderr}")
    else:
        with open(os.path.join(work_dir, "state", "suite.json"), encoding="utf-8") as f:
            inputs = json.load(f)["cases"][0]["inputs"]
        state = [spec for spec in inputs if spec.get("role") == "state"]
        check(run.returncode == 0 and len(state) == 4 and [s["seed"] for s in state] == [3, 4, 5, 6] and
              all(s["shape"][0] == 2 and s["shape"][1] == 2 and s["shape"][2] == 64 for s in state),
              f"--cache-as-state inputs: exit {run.returncode}, {inputs}")
    check(model_zoo.ModelCase("hf:gpt2", 1, decode=True, cache_as_state=True, max_seq=64, pos=3).stem()
          == "hf-gpt2-b1-decode-m64-p3-state", "stem of a decoding step whose cache is state")
    for bad in ("resnet50", "keras:resnet50", "torchvision:"):
        try:
            model_zoo.ModelCase(bad, 1).check()
            check(False, f"model name {bad!r} accepted")
        except model_zoo.BadInput as e:
            check("expected SOURCE:NAME" in str(e), f"message for {bad!r}: {e}")

    # One package for every batch size: named for its largest, its batch recorded as -1.
    dynamic = model_zoo.ModelCase("torchvision:resnet18", 8, dynamic_batch=256)
    check(dynamic.stem() == "resnet18-bmax256", f"dynamic stem {dynamic.stem()}")
    check(dynamic.recorded_inputs() == [{"shape": [-1, 3, 224, 224], "dtype": "float32", "max": [256, 3, 224, 224]}],
          f"dynamic recorded inputs {dynamic.recorded_inputs()}")
    check(dynamic.inputs() == [{"shape": [8, 3, 224, 224], "dtype": "float32"}], f"dynamic inputs {dynamic.inputs()}")

    # Bad arguments: exit code 2 and a message.
    for args, message in ((["keras:resnet50", "--dry-run"], "expected SOURCE:NAME"),
                          (["torchvision:resnet18", "--batch", "0"], "expected positive integers"),
                          (["torchvision:resnet18", "--format", "onnx"], "expected formats among pt, pt2"),
                          (["torchvision:resnet18", "--decode", "--dry-run"], "--decode: torchvision:resnet18 is not a decoder"),
                          (["timm:vit_base_patch16_224", "--decode", "--dry-run"], "is not a decoder"),
                          (["hf:llama", "--decode", "--max-seq", "64", "--pos", "64", "--dry-run"],
                           "--pos 64 must be in [0, --max-seq 64)"),
                          (["hf:llama", "--decode", "--pos", "-1", "--dry-run"], "--pos -1 must be in [0, --max-seq 1024)"),
                          (["hf:llama", "--pos", "3", "--dry-run"], "--max-seq and --pos describe a decoding step"),
                          (["hf:llama", "--decode", "--mode", "train", "--format", "pt", "--dry-run"],
                           "--decode is a step of inference"),
                          (["torchvision:resnet18", "--dynamic-batch", "64", "--dry-run"],
                           "--dynamic-batch makes AOTInductor packages: give --format pt2"),
                          (["torchvision:resnet18", "--dynamic-batch", "64", "--batch", "1,8", "--format", "pt2",
                            "--dry-run"], "--dynamic-batch: give one --batch"),
                          (["torchvision:resnet18", "--dynamic-batch", "4", "--batch", "8", "--format", "pt2",
                            "--dry-run"], "--dynamic-batch 4 must be at least --batch 8"),
                          (["hf:gpt2", "--decode", "--dynamic-batch", "64", "--format", "pt2", "--dry-run"],
                           "--dynamic-batch with --decode needs --cache-as-state"),
                          (["hf:gpt2", "--cache-as-state", "--format", "pt", "--dry-run"],
                           "--cache-as-state describes a decoding step's KV cache: give --decode with it"),
                          (["torchvision:resnet18", "--mode", "train", "--dynamic-batch", "64", "--format", "pt2",
                            "--dry-run"], "--dynamic-batch does not go with --mode train"),
                          (["hf:gpt2", "--decode", "--cache-as-state", "--dynamic-cache", "2048", "--format", "pt2",
                            "--dry-run"], "--dynamic-cache: hf:gpt2 cannot take another cache length than it is made "
                                          "with: transformers' StaticCache sizes the attention mask by its max_cache_len"),
                          (["torchvision:resnet18", "--dynamic-cache", "64", "--format", "pt2", "--dry-run"],
                           "--dynamic-cache: torchvision:resnet18 has no KV cache given as state"),
                          (["torchvision:resnet18", "--dynamic-cache", "64", "--dry-run"],
                           "--dynamic-cache makes AOTInductor packages: give --format pt2"),
                          (["torchvision:resnet18", "--mode", "train", "--dynamic-cache", "64", "--format", "pt2",
                            "--dry-run"], "--dynamic-cache is for a decoding step (inference)"),
                          (["torchvision:resnet18", "--channels-last", "--format", "pt2", "--dry-run"],
                           "--channels-last is for a training step's package: give --mode train --format pt2"),
                          (["torchvision:resnet18", "--mode", "train", "--channels-last", "--dry-run"],
                           "--channels-last is for a training step's package"),
                          (["torchvision:resnet18", "--inductor-config", "max_autotune=true", "--format", "pt",
                            "--dry-run"], "--inductor-config sets how AOTInductor compiles: give --format pt2"),
                          (["torchvision:resnet18", "--inductor-config", "max_autotune", "--dry-run"],
                           "expected KEY=VALUE"),
                          (["torchvision:resnet18", "--scope", "layers"],
                           "--scope 'layers': expected one of layer, attention-out, auto, modules=REGEX, or several"),
                          (["torchvision:resnet18", "--scope", "full"], "--scope full is the whole model, one file"),
                          (["torchvision:resnet18", "--scope", "modules=("],
                           "--scope: scope 'modules=(': the modules regex does not compile"),
                          (["torchvision:resnet18", "--scope", "modules="], "--scope: scope 'modules=' names no modules"),
                          (["torchvision:resnet18", "--scope", "fwd-bwd"], "--scope fwd-bwd captures a training step's"),
                          (["torchvision:resnet18", "--scope", "layer:pool-each"],
                           "--scope layer:pool-each: :pool-each says how graphbench pools the graphs"),
                          (["torchvision:resnet18", "--scope", "layer,layer"], "--scope layer,layer: a scope named twice"),
                          # One chain of pieces: TorchScript (pt) or compiled by Inductor (pt2, inference).
                          (["torchvision:resnet18", "--scope", "layer", "--format", "pt,pt2"],
                           "--scope writes one chain of pieces: give --format pt (TorchScript pieces) or --format pt2"),
                          (["torchvision:resnet18", "--scope", "layer", "--format", "pt2", "--mode", "train"],
                           "--scope --format pt2 compiles inference pieces: a training step's pieces are TorchScript"),
                          (["torchvision:resnet18", "--scope", "layer", "--format", "pt2", "--dry-run"],
                           "--scope needs the model traced to know its pieces: it does not go with --dry-run"),
                          (["torchvision:resnet18", "--scope", "layer", "--pieces-package", "one"],
                           "--pieces-package says how compiled pieces are packaged: give --scope and --format pt2"),
                          (["torchvision:resnet18", "--scope", "layer", "--dynamic-batch", "8"],
                           "--scope: pieces are made at the traced shapes; --dynamic-batch does not go with it"),
                          (["torchvision:resnet18", "--scope", "layer", "--inductor-config", "max_autotune=true"],
                           "--inductor-config sets how Inductor compiles pieces: give --format pt2 with --scope"),
                          # A dry run cannot know the pieces: only splitting the traced model tells them.
                          (["torchvision:resnet18", "--scope", "layer", "--format", "pt", "--dry-run"],
                           "--scope needs the model traced to know its pieces: it does not go with --dry-run"),
                          # Without --format, --scope takes pt (refused here only for --dry-run).
                          (["torchvision:resnet18", "--scope", "layer", "--dry-run"],
                           "--scope needs the model traced to know its pieces: it does not go with --dry-run")):
        run = run_in_process("export_model", [*args, "-o", os.path.join(work_dir, "bad")])
        check(run.returncode == 2 and message in run.stderr, f"export_model.py {args}: exit {run.returncode}, {run.stderr}")

    # The baseline's --scope: parsed as export_model.py's, for model names (inference or a training step).
    for args, message in ((["torchvision:resnet18", "--scope", "bogus"], "--scope 'bogus': expected one of layer"),
                          (["--suite", "s.json", "--scope", "layer"],
                           "--scope goes with model names: a suite's cases of pieces say their own scope")):
        run = run_in_process("python_baseline", args)
        check(run.returncode == 2 and message in run.stderr, f"python_baseline.py {args}: exit {run.returncode}, {run.stderr}")
    check_pieces_suite(work_dir, python_baseline, model_zoo)
    # A case of pieces in the table: Python's chain per scope, graphbench's per scope (a case swept
    # over scopes: its records name the case in scope_group; the full scope fills the graph column).
    medians = {}
    for case_name, variant, median, scope in (("m[scope=full]", "graph", 800.0, "full"),
                                              ("m[scope=layer]", "graph", 845.0, "layer"),
                                              ("m[scope=full]", "eager", 2000.0, "full")):
        medians[(case_name, variant)] = medians[(("m", scope), variant)] = (median, "", None, "m", scope)
    one = {"median_us": 1000.0}
    pieces = {"pieces": 8, "pieces_eager": {"median_us": 1900.0},
              "scopes": {"layer": {"graphs": 4, "graphed": {"median_us": 900.0}},
                         "attention-out": {"graphs": 3, "graphed": {"failed": "RuntimeError: no"}}}}
    row = python_baseline.table({"m": {"model": "py:m.py:make", "batch": 1, "mode": "inference", "status": "ok",
                                       "eager": one, "graph": one, "graph_copy": one, "pieces": pieces}},
                                medians).splitlines()[2]
    failed = python_baseline.figure_cell({"failed": "RuntimeError: operation not permitted when stream is capturing"})
    check(failed == "failed: RuntimeError: operation not permitted when stream is capturing",
          f"a whole capture that failed (its pieces are timed still): {failed}")
    check(row == "| m | py:m.py:make | 1 | inference | 2000 | 800 |  | 1000 | 1000 | 1000 |  |  | 0.800 (eager) | 8 | "
                 "1900 | layer: 900 (4 graphs); attention-out: failed: RuntimeError: no (3 graphs) | full: 800; layer: 845 | "
                 "800 (full) / 900 (make_graphed_callables layer): 0.889 |",
          f"a case of pieces in the table: {row}")
    # graphbench's best graph against Python's best, make_graphed_callables over the pieces included;
    # a point that ran eagerly is no graph.
    medians[(("m", "full"), "graph")] = medians[("m[scope=full]", "graph")] = (800.0, "ran eagerly", None, "m", "full")
    text = python_baseline.table({"m": {"model": "py:m.py:make", "batch": 1, "mode": "inference", "status": "ok",
                                        "eager": one, "graph": one, "graph_copy": one, "pieces": pieces}}, medians)
    check("| 845 (layer) / 900 (make_graphed_callables layer): 0.939 |" in text and
          "at or below Python's best figure in 1 of 1 cases" in text, f"the best of both sides:\n{text}")

    # The baseline reads the manifests beside the files the suite names: one model per distinct case.
    read = python_baseline.cases_from_suite(os.path.join(work_dir, "configs", "models.json"))
    check(all(scope is None for _, _, scope in read), "a whole model's case has no scope")
    cases = [(name, case) for name, case, _ in read]
    check(len(cases) == 12, f"{len(cases)} cases read from the suite")
    models = {json.dumps(c.to_json(), sort_keys=True) for _, c in cases}
    check(len(models) == 6, f"{len(models)} distinct models (resnet50 b1 and b32, vit, bert, resnet18 and mobilenet train)")
    train = dict(cases)["resnet18-b32-train-pt"]
    check(train.mode == "train" and train.optimizer == "sgd" and train.momentum == 0.9, "the training case's manifest")
    check(dict(cases)["resnet18-b32-train-pt2"] == train, "the training step's package has the TorchScript file's manifest")

    # A training step's package: workload aoti in mode train, its state file beside it, its loss and
    # optimizer inside it (not case keys).
    with open(os.path.join(work_dir, "configs", "models.json"), encoding="utf-8") as f:
        package_case = {c["name"]: c for c in json.load(f)["cases"]}["resnet18-b32-train-pt2"]
    check(package_case["workload"] == "aoti" and package_case["mode"] == "train" and
          package_case["state"] == "../models/resnet18-b32-train.state.pt" and "loss" not in package_case,
          f"the training step's package case: {package_case}")

    # The side-by-side table.
    timing = {"median_us": 500.0, "calls_per_sample": 4, "samples_us": [500.0]}
    entry = {"model": "torchvision:resnet50", "batch": 1, "mode": "inference", "status": "ok",
             "eager": {**timing, "median_us": 1400.0}, "graph": timing, "graph_copy": {**timing, "median_us": 510.0}}
    results = {"records": [
        {"case": "resnet50-b1-pt", "variant": "eager", "kind": "benchmark", "status": "ok", "reason": "", "median_us": 900.0},
        {"case": "resnet50-b1-pt", "variant": "graph", "kind": "benchmark", "status": "ok", "reason": "", "median_us": 450.0}]}
    results_path = os.path.join(work_dir, "results.json")
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(results, f)
    text = python_baseline.table({"resnet50-b1-pt": entry}, python_baseline.graphbench_medians(results_path))
    check("| resnet50-b1-pt | torchvision:resnet50 | 1 | inference | 900 | 450 |  | 1400 | 500 | 510 |  |  | 0.900 (cuda.graph) |"
          in text, f"side-by-side table:\n{text}")
    # With torch.compile's figures (one failed) and a roofline share.
    entry["compile"] = {**timing, "median_us": 620.0, "compile_seconds": 7.25}
    entry["reduce_overhead"] = {"failed": "BackendCompilerFailed: boom"}
    results["records"][1]["roofline"] = {"bandwidth_share": 0.153}
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(results, f)
    text = python_baseline.table({"resnet50-b1-pt": entry}, python_baseline.graphbench_medians(results_path))
    check("| 900 | 450 | 15% | 1400 | 500 | 510 | 620 (7.2 s) | failed: BackendCompilerFailed: boom | 0.900 (cuda.graph) |"
          in text, f"table with compile figures:\n{text}")
    entry["reduce_overhead"] = {**timing, "median_us": 400.0, "compile_seconds": 9.0}
    text = python_baseline.table({"resnet50-b1-pt": entry}, python_baseline.graphbench_medians(results_path))
    check("| 400 (9.0 s) | 1.125 (reduce-overhead) |" in text, f"the best Python path:\n{text}")
    # A case swept over scopes: its records carry their scope_group; a file written before that field
    # names the points NAME[scope=SCOPE] only, and is read by the names.
    scoped = [{"case": "m-pt-layer[scope=full]", "variant": "graph", "kind": "benchmark", "status": "ok", "median_us": 300.0,
               "scope_group": "m-pt-layer"},
              {"case": "m-pt-layer[scope=layer]", "variant": "graph", "kind": "benchmark", "status": "ok", "median_us": 320.0,
               "scope": "layer", "scope_group": "m-pt-layer"},
              {"case": "other[scope=layer]", "variant": "graph", "kind": "benchmark", "status": "ok", "median_us": 1.0, "scope": "layer"}]
    for legacy in (False, True):
        records = [{k: v for k, v in r.items() if not (legacy and k == "scope_group")} for r in scoped]
        with open(results_path, "w", encoding="utf-8") as f:
            json.dump({"records": records}, f)
        medians = python_baseline.graphbench_medians(results_path)
        cells = python_baseline.scope_cells(medians, "m-pt-layer")
        check(cells == "full: 300; layer: 320", f"scope cells (legacy file: {legacy}): {cells!r}")
        check(medians[(("m-pt-layer", "full"), "graph")][0] == 300.0, "the full scope's point by its group")
        check(python_baseline.scope_cells(medians, "other") == ("layer: 1" if legacy else ""),
              f"a case named like a point is one only in an old file (legacy: {legacy})")

    # Decoders: names and inputs of a decoding step, and a manifest of before the decode fields.
    step = model_zoo.ModelCase("hf:llama", 8, dtype="bfloat16", decode=True, max_seq=1024, pos=512, token_high=32000)
    step.check()
    check(step.stem() == "hf-llama-b8-decode-m1024-p512-bfloat16", f"stem of a decoding step: {step.stem()}")
    check(step.inputs() == [{"shape": [8, 1], "dtype": "int64", "range": [0, 32000]},
                            {"shape": [1], "dtype": "int64", "range": [512, 513]}], f"decode inputs {step.inputs()}")
    old = model_zoo.ModelCase("hf:bert", 1).to_json()
    for key in ("decode", "max_seq", "pos"):
        old.pop(key)
    check(model_zoo.ModelCase.from_json(old).decode is False, "a manifest without the decode fields")

    check_suite_script(source_dir, work_dir, "decode-suite.sh", "decode.json")
    check_sweep_script(source_dir, work_dir)

    return finish("check_model_scripts.py")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: check_model_scripts.py SOURCE_DIR WORK_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
