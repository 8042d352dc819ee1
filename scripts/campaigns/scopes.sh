# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): capture scopes side by side (docs/scopes.md).
#
#   scopes-export  starts the scopes stage's exports in the background, like models-export (the
#             scopes stage waits for them)
#   scopes    capture scopes side by side (docs/models.md, "Splitting a model into pieces"): the
#             models of configs/scopes.json exported and split into pieces (scripts/scopes-suite.sh
#             writes the suite to $SCOPES_SUITE, default models/scopes.json; SCOPES_SUITE=
#             configs/scopes.json rewrites the committed one; $SCOPES_MODELS picks the models),
#             run swept over their scopes ($MODEL_ARGS), then Python's figures on the same pieces
#             (make_graphed_callables per scope, reduce-overhead on the whole model, the four of
#             the whole model) beside them (results/scopes)
#   scopes-inductor-export  the models of configs/scopes.json (and examples/padded_tokens.py and
#             examples/gated_layers.py, split by torch.compile's tracer) with their inference pieces
#             compiled by Inductor (SCOPES_FORMAT=pt2: AOTInductor packages, the pieces that cannot
#             be captured TorchScript; the training step's pieces TorchScript), $SCOPES_PARALLEL
#             exports at a time (default 6), into models/inductor and the suite
#             models/scopes-inductor.json, which joins every model exported there so far (so that
#             the exports can be split over calls: $SCOPES_INDUCTOR_MODELS picks the models,
#             $SCOPES_LLAMA_BATCHES the decoder's batches)
#   scopes-inductor  that suite run swept over its scopes ($SCOPES_RUN_ARGS, default --max-time 1)
#             into results/scopes-inductor (results.json, exported-suite.json)
#   scopes-inductor-python  Python's peers on the same split: reduce-overhead on the whole model
#             (with the graphs and breaks torch.compile made) and make_graphed_callables over the
#             pieces compiled by torch.compile (--compile-pieces), beside graphbench's figures
#             (results/scopes-inductor/python-baseline.json; $PYTHON_CASES, a regex, picks the
#             cases, and each call adds to the file, so that the cases can be split over calls)
#   aoti-probe  AOTInductor packages of pieces loaded in fresh processes, the native stack of any
#             crash (scripts/aoti_pieces_probe.py; packages in models/aoti-probe, logs and
#             probe.json in results/aoti-probe)

# scopes_export SUITE: scripts/scopes-suite.sh into SUITE.
scopes_export() { run scopes-export env PYTHON="${PYTHON:-python3}" scripts/scopes-suite.sh models "$1"; }

stage_scopes_export() {
  scopes_export "${SCOPES_SUITE:-models/scopes.json}" > /dev/null &
  scopes_export_pid=$!
  scopes_exported=1
  echo "=== scopes-export: started in the background (pid $scopes_export_pid)" | tee -a "$OUT/logs/summary.log"
}

stage_scopes() {
  py=${PYTHON:-python3}
  scopes_suite=${SCOPES_SUITE:-models/scopes.json}
  wait_all_exports
  [[ -n $scopes_exported ]] || scopes_export "$scopes_suite" || status=1
  run scopes "$gb" run --config "$scopes_suite" "${model_args[@]}" -o "$OUT/results/scopes" || status=1
  mkdir -p "$OUT/results/scopes"
  cp "$scopes_suite" "$OUT/results/scopes/exported-suite.json" 2>/dev/null
  run scopes-python "$py" scripts/python_baseline.py --suite "$scopes_suite" \
    --graphbench "$OUT/results/scopes/results.json" "${python_args[@]}" \
    -o "$OUT/results/scopes/python-baseline.json" || status=1
}

stage_aoti_probe() {
  py=${PYTHON:-python3}
  run aoti-probe "$py" scripts/aoti_pieces_probe.py --out models/aoti-probe ${AOTI_PROBE_ARGS:-} || status=1
  mkdir -p "$OUT/results/aoti-probe"
  cp models/aoti-probe/*.log models/aoti-probe/probe.json "$OUT/results/aoti-probe/" 2>/dev/null
}

stage_scopes_inductor_export() {
  py=${PYTHON:-python3}
  run scopes-inductor-export env PYTHON="$py" SCOPES_FORMAT=pt2 SCOPES_PARALLEL="${SCOPES_PARALLEL:-6}" \
    SCOPES_MODELS="${SCOPES_INDUCTOR_MODELS:-llama moe resnet18 resnet50 conv_attention padded gated}" \
    SCOPES_JOIN_ALL=1 scripts/scopes-suite.sh models/inductor models/scopes-inductor.json || status=1
}

stage_scopes_inductor() {
  py=${PYTHON:-python3}
  local suite=models/scopes-inductor.json dir="$OUT/results/scopes-inductor"
  [[ -f $suite ]] || stage_scopes_inductor_export
  read -r -a run_args <<< "${SCOPES_RUN_ARGS:---max-time 1}"
  run scopes-inductor "$gb" run --config "$suite" "${run_args[@]}" -o "$dir" || status=1
  mkdir -p "$dir"
  cp "$suite" "$dir/exported-suite.json" 2>/dev/null
  # Kept beside the models too, for the Python stage of a later call.
  cp "$dir/results.json" models/inductor/graphbench-results.json 2>/dev/null
}

stage_scopes_inductor_python() {
  py=${PYTHON:-python3}
  local suite=models/scopes-inductor.json dir="$OUT/results/scopes-inductor"
  mkdir -p "$dir"
  # The file grows over calls beside the models; each call leaves a copy in its results.
  run scopes-inductor-python "$py" scripts/python_baseline.py --suite "$suite" --cases "${PYTHON_CASES:-.}" \
    --compile-pieces --samples "${PYTHON_SAMPLES:-20}" --graphbench models/inductor/graphbench-results.json \
    -o models/inductor/python-baseline.json --append || status=1
  cp models/inductor/python-baseline.json models/inductor/python-baseline.md "$dir/" 2>/dev/null
}
