# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): data-dependent control flow on the GPU.
#
#   conditional-nodes  the [cuda] tests of engine/exec/conditional_graph.h (an exit chain and an IF/ELSE branch
#             against eager, every outcome), then configs/control-flow.json (the early exit at a
#             threshold that stops at the first head, one the data decide, one that never stops
#             early: eager, the step broken into a graph per block, one graph of conditional nodes)
#             and Python's best on the same model (scripts/python_control_flow_baseline.py:
#             eager, reduce-overhead, make_graphed_callables over the blocks), in
#             results/conditional-nodes/
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
