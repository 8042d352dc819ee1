# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): capture scopes side by side (docs/scopes.md).
#   scopes-export  starts the scopes stage's exports in the background
#   scopes    configs/scopes.json's models split into pieces (scripts/scopes-suite.sh, $SCOPES_MODELS)
#             into $SCOPES_SUITE (default models/scopes.json; configs/scopes.json rewrites the
#             committed one), swept over their scopes ($MODEL_ARGS), Python's figures beside them
#   scopes-inductor-export  those models with their inference pieces compiled by Inductor,
#             $SCOPES_PARALLEL at a time (default 6), into models/inductor; models/scopes-inductor.json
#             joins every model exported there so far, so that the exports can be split over calls
#             ($SCOPES_INDUCTOR_MODELS, $SCOPES_LLAMA_BATCHES)
#   scopes-inductor  that suite swept over its scopes ($SCOPES_RUN_ARGS, default --max-time 1)
#   scopes-inductor-python  Python's peers on the same pieces compiled by torch.compile; $PYTHON_CASES,
#             a regex, picks the cases ($PYTHON_SAMPLES, default 20), each call adds to python-baseline.json
#   aoti-probe  packages of pieces loaded in fresh processes, the native stack of any crash
#             (scripts/aoti_pieces_probe.py, $AOTI_PROBE_ARGS)

scopes_suite=${SCOPES_SUITE:-models/scopes.json}
scopes_export() { "$1" scopes-export env PYTHON="$py" scripts/scopes-suite.sh models "$scopes_suite"; }
stage_scopes_export() { scopes_export background; }

stage_scopes() {
  wait_all_exports
  [[ ${bg_pids[scopes-export]+set} ]] || scopes_export run || status=1
  suite_with_python scopes "$scopes_suite" "$OUT/results/scopes" "$scopes_suite"
}

stage_aoti_probe() {
  run aoti-probe "$py" scripts/aoti_pieces_probe.py --out models/aoti-probe ${AOTI_PROBE_ARGS:-} || status=1
  mkdir -p "$OUT/results/aoti-probe"
  cp models/aoti-probe/*.log models/aoti-probe/probe.json "$OUT/results/aoti-probe/" 2>/dev/null
}

stage_scopes_inductor_export() {
  run scopes-inductor-export env PYTHON="$py" SCOPES_FORMAT=pt2 SCOPES_PARALLEL="${SCOPES_PARALLEL:-6}" \
    SCOPES_MODELS="${SCOPES_INDUCTOR_MODELS:-llama moe resnet18 resnet50 conv_attention padded gated}" \
    SCOPES_JOIN_ALL=1 scripts/scopes-suite.sh models/inductor models/scopes-inductor.json || status=1
}

stage_scopes_inductor() {
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
  local suite=models/scopes-inductor.json dir="$OUT/results/scopes-inductor"
  mkdir -p "$dir"
  # The file grows over calls beside the models; each call leaves a copy in its results.
  run scopes-inductor-python "$py" scripts/python_baseline.py --suite "$suite" --cases "${PYTHON_CASES:-.}" \
    --compile-pieces --samples "${PYTHON_SAMPLES:-20}" --graphbench models/inductor/graphbench-results.json \
    -o models/inductor/python-baseline.json --append || status=1
  cp models/inductor/python-baseline.json models/inductor/python-baseline.md "$dir/" 2>/dev/null
}
