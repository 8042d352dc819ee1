# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): data-dependent control flow (docs/models.md,
# "What cannot be captured"; docs/control-flow.md).
#   control-flow  the [cuda] check of graphbench's list of what cannot be captured against CUDA's
#             sync debug mode; examples/unique_tower.py and padded_tokens.py exported with --scope
#             auto and run as exported, Python's figures beside them; examples/early_exit.py's Python
#             figures (all six blocks run): results/control-flow/<model>/. About 5 minutes on an H200.
#   branches  examples/early_exit.py (a chain of exits) and routed_mlp.py (an if/else: one IF/ELSE
#             node) split at their own branches, run eager, as a graph per piece and as one
#             conditional graph; Python's pieces (python_branches_baseline.py) and whole model
#             (python_baseline.py) on inputs that force each outcome (the callables below):
#             results/branches/<model>/
#   conditional-nodes  the [cuda] tests of engine/exec/conditional_graph.h, configs/control-flow.json
#             (eager, a graph per block, one graph of conditional nodes) and Python's best on the same
#             model (scripts/python_control_flow_baseline.py): results/conditional-nodes/

stage_control_flow() {
  local dir="$OUT/results/control-flow" models=models/control-flow name model
  mkdir -p "$dir" "$models"
  run control-flow-probe "$py" tests/python/check_capture_probe_torch.py . "$models/probe" "$gb" --device || status=1
  cp "$OUT/logs/control-flow-probe.log" "$dir/capture-probe.log" 2>/dev/null
  for name in unique_tower padded_tokens; do
    model="py:examples/$name.py:make_model"
    mkdir -p "$dir/$name"
    export_model "control-flow-export-$name" "$model" --scope auto -o "$models/$name"
    suite_with_python "control-flow-$name" "$models/$name/suite.json" "$dir/$name" "$models/$name/suite.json"
    cp "$OUT/logs/control-flow-export-$name.log" "$dir/$name/export.log" 2>/dev/null
  done
  mkdir -p "$dir/early_exit"
  run control-flow-early_exit-python "$py" scripts/python_baseline.py py:examples/early_exit.py:make_model \
    --batch 8 "${python_args[@]}" -o "$dir/early_exit/python-baseline.json" || status=1
}

stage_branches() {
  local name callable dir models
  local -A callables=([early_exit]="make_model make_model_exits_first" [routed_mlp]="make_model_then make_model_else")
  for name in early_exit routed_mlp; do
    dir="$OUT/results/branches/$name" models="models/branches/$name"
    mkdir -p "$dir" "$models"
    export_model "branches-export-$name" "py:examples/$name.py:make_model" --batch 8 --scope auto -o "$models"
    cp "$OUT/logs/branches-export-$name.log" "$dir/export.log" 2>/dev/null
    cp "$models/suite.json" "$dir/exported-suite.json" 2>/dev/null
    for callable in ${callables[$name]}; do
      run "branches-python-model-$name-$callable" "$py" scripts/python_baseline.py \
        "py:examples/$name.py:$callable" --batch 8 -o "$dir/python-model-$callable.json" || status=1
    done
    run "branches-$name" "$gb" run --config "$models/suite.json" -o "$dir/graphbench" || status=1
    run "branches-python-$name" "$py" scripts/python_branches_baseline.py --suite "$models/suite.json" \
      --graphbench "$dir/graphbench/results.json" -o "$dir/python-pieces.json" || status=1
    grep '^|' "$OUT/logs/branches-python-$name.log" > "$dir/python-pieces.md"
  done
}

stage_conditional_nodes() {
  local dest=$OUT/results/conditional-nodes
  mkdir -p "$dest"
  run conditional-build cmake --build build-gpu -j "$(nproc)" --target graphbench_engine_tests || status=1
  run conditional-tests ctest --test-dir build-gpu -R "conditional graph" --output-on-failure || status=1
  cp "$OUT/logs/conditional-tests.log" "$dest/cuda-tests.log"
  run conditional-graphbench "$gb" run --config configs/control-flow.json --device cuda -o "$dest/graphbench" || status=1
  run conditional-python python3 scripts/python_control_flow_baseline.py --output "$dest/python.json" || status=1
  cp "$OUT/logs/conditional-python.log" "$dest/python.md"
}
