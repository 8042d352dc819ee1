#!/usr/bin/env bash
# The GPU machine's job, in one call of the device tool: build against the CUDA LibTorch, run
# every test (the [cuda] ones included) and the benchmark suites. Logs and result files go under
# $OUT, packed into $OUT/gpu-results.tgz (the device tool returns at most 8 files).
#
#   scripts/gpu-check.sh STAGE...
#     build     configure and build into build-gpu/ (always first when given)
#     test      ctest, all tests
#     gelu linear_dropout blog ci     graphbench --workload NAME
#     mnist     graphbench --workload mnist, eager and --use-train-graph, then the targets checked
#               on the two results (scripts/mnist_ratios.py; with the tutorial's times when the
#               tutorial stage ran first)
#     mnist-host  the same two runs with --data-on-host (the tutorial's way of feeding)
#     tutorial  the tutorial's own MNIST program beside graphbench, both timed as whole processes
#               (runs .tutorial/tutorial-mnist.sh when that untracked folder was carried here:
#               the tutorial's program is not part of this repository)
#     compare   runs of configs/ci.json: an A/A pair compared (exit 0 expected), a third run
#               against the pair (exit 0), one with an injected slowdown (exit 1)
#     ci-runs   $CI_RUNS (default 4) more no-change runs of configs/ci.json (--device cuda; about a
#               minute each), added to build-gpu/ci-runs/run-K (kept while the machine stays warm, so
#               that the runs of several calls add up) and copied to results/ci-runs/
#     calibrate graphbench calibrate over every run in build-gpu/ci-runs: the gate's calibration
#               (results/ci-runs/gate-calibration.json), the A/A interval overlap of the runs and,
#               from 4 runs on, the gate's leave-one-out false-alarm and detection rates (docs/ci.md)
#     aa-repetitions  $AA_RUNS (default 1) more runs of configs/ci.json, each merged from $REPETITIONS
#               (default 3) repetitions in processes of their own (--repetitions; about 3 minutes a run
#               at 3), added to build-gpu/aa-repetitions/run-K like ci-runs and copied to
#               results/aa-repetitions/
#     aa-overlap  graphbench calibrate --overlap-only over the runs of aa-repetitions: how often the
#               merged runs' 95% intervals overlap (docs/measuring.md, repetitions)
#     l2        configs/gelu.json's cases eager and graph with --l2 hot, then --l2 cold (the flush
#               waited for before each step: docs/measuring.md), in results/l2-hot and results/l2-cold
#     python    Python PyTorch's replay figures of the same steps (scripts/python_replay_baseline.py)
#     targets   the blog run (stage blog) against its targets (scripts/blog_targets.py, with the
#               python stage's figures when present) and the README's table (scripts/blog_table.py)
#     profile-off  the blog's GELU cases again with --profile off: the same figures show that
#               profiling a case does not slow the cases timed after it
#     models-export  starts the export of configs/models.json's models (below) in the background,
#               beside the stages that follow; give it before `test`, and `wait-export` before the
#               first timed stage (the AOTInductor compiles would disturb timings)
#     wait-export    waits for models-export
#     models    your own model: export the models of configs/models.json into models/ (not committed;
#               scripts/models-suite.sh, needs $PYTHON with torch, torchvision, transformers), run the
#               suite, then Python's eager and torch.cuda.graph figures of the same models
#               (scripts/python_baseline.py), side by side in results/models/python-baseline.md
#     decode-export  starts the export of configs/decode.json's decoders (scripts/decode-suite.sh,
#               both models side by side) in the background, like models-export
#     decode    LLM decoding steps: waits for decode-export (or exports), runs configs/decode.json,
#               then Python's eager, torch.cuda.graph, torch.compile and reduce-overhead figures of
#               the same steps (scripts/python_baseline.py), side by side in results/decode/
#     train-pt2 the whole training steps of configs/models.json (ResNet-18 with SGD, MobileNetV3-Small
#               with Adam and dropout, batch 32) as AOTInductor packages alone, exported as
#               scripts/models-suite.sh exports them (channels-last), run, and
#               Python's four figures beside them (results/train-pt2)
#     own-code  your own code (py: models, docs/models.md "Benchmark your own code"): the example
#               examples/conv_attention.py (batch 8) and the token tagger of
#               tests/cli/own_code/token_tagger.py (named as a module, batch 16), each for inference
#               and a training step with the file's own loss, exported ($OWN_CODE_FORMATS, default
#               pt; pt,pt2 adds AOTInductor packages and a dynamic-batch package of the example swept
#               over batch 1 to 64), run, and Python's four figures beside them (results/own-code)
#     scopes    capture scopes side by side (docs/models.md, "Splitting a model into pieces"): the
#               models of configs/scopes.json exported and split into pieces (scripts/scopes-suite.sh
#               writes the suite to $SCOPES_SUITE, default models/scopes.json; SCOPES_SUITE=
#               configs/scopes.json rewrites the committed one; $SCOPES_MODELS picks the models),
#               run swept over their scopes ($MODEL_ARGS), then Python's figures on the same pieces
#               (make_graphed_callables per scope, reduce-overhead on the whole model, the four of
#               the whole model) beside them (results/scopes)
#     scopes-export  starts the scopes stage's exports in the background, like models-export (the
#               scopes stage waits for them)
#     mobilenet-adam  torchvision's MobileNetV3-Small training step with Adam (TorchScript, batch 32),
#               exported and run alone (results/mobilenet-adam): the case that validation once failed
#     sweep-export  starts the export of configs/sweeps.json's decoding steps (scripts/sweep-models.sh,
#               one package per batch size) in the background, like models-export
#     sweeps    waits for sweep-export (or exports), runs configs/sweeps.json ($SWEEP_ARGS): its
#               steps into results/sweeps, its model cases into results/sweeps-models; then draws
#               each sweep (scripts/plot_sweep.py) where matplotlib is
#     vit-pt    torchvision's ViT-B/16 as TorchScript (batch 1), exported, run and timed in Python in one
#               call (results/vit-pt): the traced model whose reshape once kept it from being captured
#     trace     the blog's Linear+Dropout training step, eager and captured, with --trace: Chrome
#               traces in results/traces, and one eager step above one replay drawn from them
#               (scripts/trace_timeline.py, results/traces/timeline.png)
#     decode-llama-pt  the Llama-class TorchScript cases of configs/decode.json alone: exported
#               (MODELS=llama FORMATS=pt scripts/decode-suite.sh), run, and Python's four figures
#               beside them (results/decode-llama-pt)
#     cache-state  a decoding step whose KV cache is state (docs/models.md, "The KV cache as state"):
#               examples/tiny_decode.py as TorchScript and as one dynamic-batch AOTInductor package, and
#               a two-layer hf:llama step with --cache-as-state (TorchScript at batch 2, one package
#               for batch 1 to 8; the four exported side by side), each run on the GPU swept over
#               batch 1, 2, 4, 8 with eager, static and graph validated (results/cache-state, results/cache-state-llama); the packages'
#               manifests hold their export times. Then the cache's length: tiny_decode as one package
#               for every batch up to 8 and every length up to 512 (--dynamic-cache 512, exported beside
#               the four), swept with the TorchScript file over lengths 64, 128, 256, 512 at batch 2
#               ($CACHE_LENGTHS; results/cache-state-length)
#     serving-llama  issue 42's serving sweep: the Llama-class decoder of configs/decode.json at
#               $SERVING_MAX_SEQ (default 4096) positions, bfloat16, one package for every batch up
#               to 256 (--cache-as-state --dynamic-batch 256), swept over vLLM's sizes 1, 2, 4, 8,
#               16, ..., 256 ($SERVING_BATCHES) with eager and graph: results/serving-llama, whose
#               results.md sets graphbench's capture sizes against vLLM's list; the package's size,
#               its weights' bytes and its export times in results/serving-llama/package.txt
#               ($SERVING_ARGS, default --max-time 3 --profile off)
#     serving-export  starts serving-llama's export in the background, like models-export (serving-llama
#               waits for it and for every other export started so, so that no compile runs beside
#               its timings)
#     serving-reexport  the serving decoder exported again after serving-llama, with the compile
#               cache the first export filled: its export times in results/serving-llama/reexport.txt
#     serving-weights-apart  the serving decoder exported with its weights beside the library
#               (package_constants_in_so=false, a binary blob): its export times, and a short run at
#               batch 8 (results/serving-weights-apart): whether the C++ compile gets shorter
#     ddp       configs/ddp.json data-parallel with --nproc 1 and --nproc 2 (one GPU per rank,
#               NVLink multicast off; $DDP_ARGS, default --max-time 4), results in results/ddp-n1 and
#               results/ddp-n2; then its benchmark cases as before the overlap (--grad-overlap off
#               --grad-bucket-mb 25: the all-reduce after backward) at N=1 and N=2, in
#               results/ddp-before-n1 and -n2; prints both tables (scripts/ddp_table.py: the step
#               at N=1 and N=2, without all-reduce, the exposed all-reduce, the all-reduce alone,
#               the scaling efficiency, per case)
#     ddp-bf16  the benchmark cases of configs/ddp.json with --grad-dtype bfloat16 at N=2, in
#               results/ddp-bf16-n2, and its table (after the ddp stage: with its N=1 run)
#     ddp-trace first scripts/all_reduce_overlap.py on both GPUs (the all-reduce alone by size, fc1's
#               weight-gradient product alone, and the two side by side: whether they share the
#               GPU); then configs/ddp.json's large case at N=2, graph variant,
#               traced on both ranks (--trace), without and with gradient chunks (--grad-chunk-mb
#               for each of $DDP_TRACE_CHUNKS, default "0 16"), in results/ddp-trace-chunksC, each with a
#               timeline.png of one step of rank 0 above rank 1
#     ddp-copy-engine  configs/ddp.json's benchmark cases with --grad-transport copy-engine at N=1 and
#               N=2 (results/ddp-ce-n1, -n2), the large case also with --grad-chunk-mb $DDP_CHUNK_MB
#               (default 8) at N=2 (results/ddp-ce-chunks-n2), and their tables
#     ddp-chunks  configs/ddp.json's large case with gradient chunks (--grad-chunk-mb $DDP_CHUNK_MB,
#               default 8: fc1.weight's gradient computed and all-reduced in four row chunks) at
#               N=1 and N=2, in results/ddp-chunks-n1 and -n2, and its table, beside the ddp
#               stage's (unchunked) one
#     ddp-python  PyTorch's own DistributedDataParallel on configs/ddp.json's Linear+Dropout steps,
#               eager and in torch.cuda.graph, at N=1 and N=2 (scripts/python_ddp_baseline.py), in
#               results/python-ddp.json and .md; beside the ddp stage's N=2 figures when it ran first
#
# Needs the offline kit in .device-kit/ (CLI11, nlohmann/json, fmt, Catch2, zlib headers as Debian
# packages, the Fashion-MNIST files, and device-env.sh that unpacks them), carried to the GPU machine.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT/logs" "$OUT/results"
[[ -f .device-kit/device-env.sh ]] && source .device-kit/device-env.sh
export GRAPHBENCH_GIT_COMMIT=${GRAPHBENCH_GIT_COMMIT:-unknown}
# AOTInductor's compile cache on the checkout's disk: in /tmp it filled the space the result files
# needed (a run that then could only rescue its records).
export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-$root/.inductor-cache}
df -h /tmp "$root" > "$OUT/logs/disk-start.log" 2>&1
gb=build-gpu/graphbench
status=0
# The timed (benchmark) cases of configs/ddp.json: the runs beside the main one leave the training run out.
DDP_BENCHMARKS=ddp-linear-dropout-small,ddp-linear-dropout-large,ddp-mnist-step

# The launcher keeps NVLink multicast off in its ranks; exported for the data-parallel stages too,
# so that every process of this job (torchrun's included) sees the same settings.
nvlink_multicast_off() {
  export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_SYMM_MEM_DISABLE_MULTICAST=${TORCH_SYMM_MEM_DISABLE_MULTICAST:-1}
  export NVSHMEM_DISABLE_NVLS=${NVSHMEM_DISABLE_NVLS:-1}
}

run() {  # run NAME COMMAND...: logs to $OUT/logs/NAME.log, records the exit code
  local name=$1
  shift
  echo "=== $name: $*" | tee -a "$OUT/logs/summary.log"
  local start=$SECONDS
  "$@" > "$OUT/logs/$name.log" 2>&1
  local code=$?
  echo "=== $name: exit $code after $((SECONDS - start)) s" | tee -a "$OUT/logs/summary.log"
  tail -n 40 "$OUT/logs/$name.log"
  return $code
}

export_pid=
decode_export_pid=
sweep_export_pid=
wait_background() {  # wait_background NAME PID: waits for an export started in the background
  local name=$1 pid=$2 start=$SECONDS code
  [[ -n $pid ]] || return 0
  wait "$pid"
  code=$?
  echo "=== $name: exit $code, waited $((SECONDS - start)) s" | tee -a "$OUT/logs/summary.log"
  tail -n 20 "$OUT/logs/$name.log"
  [[ $code -eq 0 ]] || status=1
}
wait_export() { wait_background models-export "$export_pid"; export_pid=; }
wait_decode_export() { wait_background decode-export "$decode_export_pid"; decode_export_pid=; }
wait_sweep_export() { wait_background sweep-export "$sweep_export_pid"; sweep_export_pid=; }
# Set by the background stages: the timed stage then uses what this job exported, never a file an
# earlier job left in models/ on a machine that stayed warm.
serving_export_pid=
serving_exported=
scopes_export_pid=
scopes_exported=
wait_serving_export() { wait_background serving-export "$serving_export_pid"; serving_export_pid=; }
wait_scopes_export() { wait_background scopes-export "$scopes_export_pid"; scopes_export_pid=; }
# Before a timed stage: every export still compiling in the background finished.
wait_all_exports() { wait_export; wait_decode_export; wait_sweep_export; wait_serving_export; wait_scopes_export; }
# parallel_exports "NAME|EXPORT ARGS" ...: scripts/export_model.py for each, side by side, each into
# models/NAME.json with its log in $OUT/logs/NAME.log; fails when one failed.
parallel_exports() {
  local spec name pids=() code=0
  for spec in "$@"; do
    name=${spec%%|*}
    # shellcheck disable=SC2086 # the arguments are words
    "${PYTHON:-python3}" scripts/export_model.py ${spec#*|} -o models --suite "models/$name.json" \
      > "$OUT/logs/$name.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || code=1; done
  return $code
}
# join_suites OUT IN...: the cases of the IN suites in one suite (the first one's settings).
join_suites() {
  python3 - "$@" <<'PY'
import json, os, sys
out, *ins = sys.argv[1:]
suites = [json.load(open(p)) for p in ins if os.path.exists(p)]
if suites:
    joined = dict(suites[0], cases=[c for s in suites for c in s["cases"]])
    json.dump(joined, open(out, "w"), indent=2)
PY
}
# package_facts FILE: a package's size, its weights' bytes and export times (from its manifest), and
# what it unpacks to.
package_facts() {
  ls -l "$1"
  python3 -c "import json, sys; m = json.load(open(sys.argv[1] + '.json')); print(json.dumps({k: m.get(k) for k in ('sizes', 'export_times')}))" "$1"
  python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print('unpacked:', sum(i.file_size for i in z.infolist()), 'bytes in', len(z.infolist()), 'entries')" "$1"
}
# The serving sweep's decoder: the Llama-class one of configs/decode.json, bfloat16, its KV cache as
# state, one package for every batch up to 256.
serving_max_seq=${SERVING_MAX_SEQ:-4096}
serving_llama=(hf:llama --hf-config hidden_size=2048 --hf-config intermediate_size=5632 --hf-config num_hidden_layers=6
               --hf-config num_attention_heads=16 --hf-config num_key_value_heads=4 --hf-config vocab_size=32000
               --hf-config max_position_embeddings="$serving_max_seq" --decode --cache-as-state --dtype bfloat16
               --batch 8 --dynamic-batch 256 --format pt2 --max-seq "$serving_max_seq" --pos $((serving_max_seq / 2)))
# export_serving NAME DIR [EXPORT ARGS]: the serving decoder exported into DIR (suite DIR/serving-llama.json).
export_serving() {
  local name=$1 dir=$2
  shift 2
  run "$name" "${PYTHON:-python3}" scripts/export_model.py "${serving_llama[@]}" "$@" -o "$dir" \
    --suite "$dir/serving-llama.json"
}
# serving_package DIR: the serving decoder's package in DIR, if it was made.
serving_package() { ls "$1"/hf-llama-bmax256-decode-m"$serving_max_seq"-*-state-bfloat16.pt2 2> /dev/null | head -1; }
# scopes_export SUITE: scripts/scopes-suite.sh into SUITE.
scopes_export() { run scopes-export env PYTHON="${PYTHON:-python3}" scripts/scopes-suite.sh models "$1"; }
# Sampling of the model suites (long AOTInductor cases fit a call of the device tool).
read -r -a model_args <<< "${MODEL_ARGS:-}"
read -r -a python_args <<< "${PYTHON_BASELINE_ARGS:-}"

for stage in "$@"; do
  case $stage in
    build)
      nvidia-smi > "$OUT/logs/nvidia-smi.log" 2>&1
      run configure cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release || { tar czf "$OUT/gpu-results.tgz" -C "$OUT" logs; exit 1; }
      run build cmake --build build-gpu -j "$(nproc)" -- -k 0 || { tar czf "$OUT/gpu-results.tgz" -C "$OUT" logs; exit 1; }
      ;;
    test)
      # cpu-only: tests that expect no CUDA (e.g. --device cuda refused) do not apply here.
      # CTEST_EXCLUDE: a regex of tests to leave out (e.g. the CPU-only MNIST epochs, which CI runs);
      # CTEST_INCLUDE: a regex of the only tests to run (e.g. the [cuda] tests a change touches).
      run ctest ctest --test-dir build-gpu --output-on-failure -j "${CTEST_JOBS:-4}" --timeout "${CTEST_TIMEOUT:-600}" \
        -LE cpu-only ${CTEST_EXCLUDE:+-E "$CTEST_EXCLUDE"} ${CTEST_INCLUDE:+-R "$CTEST_INCLUDE"} || status=1
      ;;
    gelu|linear_dropout|blog|ci)
      run "$stage" "$gb" --workload "$stage" -o "$OUT/results/$stage" || status=1
      ;;
    mnist)
      run mnist-eager "$gb" --workload mnist -o "$OUT/results/mnist-eager" || status=1
      run mnist-graph "$gb" --workload mnist --use-train-graph -o "$OUT/results/mnist-graph" || status=1
      tutorial_times=()
      [[ -f $OUT/tutorial/times.txt ]] && tutorial_times=(--tutorial-times "$OUT/tutorial/times.txt")
      run mnist-ratios python3 scripts/mnist_ratios.py "$OUT/results/mnist-eager/results.json" \
        "$OUT/results/mnist-graph/results.json" "${tutorial_times[@]}" || status=1
      ;;
    mnist-host)
      run mnist-host-eager "$gb" --workload mnist --data-on-host -o "$OUT/results/mnist-host-eager" || status=1
      run mnist-host-graph "$gb" --workload mnist --data-on-host --use-train-graph -o "$OUT/results/mnist-host-graph" || status=1
      ;;
    tutorial)
      if [[ -x .tutorial/tutorial-mnist.sh ]]; then
        run tutorial .tutorial/tutorial-mnist.sh .tutorial "$OUT/tutorial" || status=1
      else
        echo "=== tutorial: skipped: no .tutorial/tutorial-mnist.sh here" | tee -a "$OUT/logs/summary.log"
      fi
      ;;
    compare)
      # An A/A pair of baselines, a plain A/A comparison (exit 0 expected), then the CI recipe:
      # a new run against the pair (exit 0 expected) and one with the graph variant slowed down
      # by running every step twice (exit 1 expected, the regressions named).
      run ci-a "$gb" --workload ci --device cuda -q --format json,csv,md,gbench -o "$OUT/results/ci-a" || status=1
      run ci-b "$gb" --workload ci --device cuda -q -o "$OUT/results/ci-b" || status=1
      run compare-aa "$gb" compare "$OUT/results/ci-a/results.json" "$OUT/results/ci-b/results.json"
      echo "compare-aa exit $? (0 expected)" | tee -a "$OUT/logs/summary.log"
      run ci-c "$gb" --workload ci --device cuda -q -o "$OUT/results/ci-c" || status=1
      run compare-same "$gb" compare "$OUT/results/ci-a/results.json" "$OUT/results/ci-c/results.json" --aa "$OUT/results/ci-b/results.json"
      echo "compare-same exit $? (0 expected)" | tee -a "$OUT/logs/summary.log"
      run ci-slow "$gb" --workload ci --device cuda -q --inject-slowdown graph=2 -o "$OUT/results/ci-slow" || status=1
      run compare-slow "$gb" compare "$OUT/results/ci-a/results.json" "$OUT/results/ci-slow/results.json" --aa "$OUT/results/ci-b/results.json"
      echo "compare-slow exit $? (1 expected)" | tee -a "$OUT/logs/summary.log"
      ;;
    ci-runs)
      # Numbered after the runs already there: several calls of the device tool add up.
      mkdir -p build-gpu/ci-runs "$OUT/results/ci-runs"
      for ((i = 0; i < ${CI_RUNS:-4}; ++i)); do
        k=$(find build-gpu/ci-runs -maxdepth 1 -name 'run-*' | wc -l)
        run "ci-run-$k" "$gb" --workload ci --device cuda -q -o "build-gpu/ci-runs/run-$k" || status=1
        cp "build-gpu/ci-runs/run-$k/results.json" "$OUT/results/ci-runs/run-$k.json"
      done
      ;;
    calibrate)
      mkdir -p "$OUT/results/ci-runs"
      runs=(build-gpu/ci-runs/run-*/results.json)
      run calibrate "$gb" calibrate "${runs[@]}" -o "$OUT/results/ci-runs/gate-calibration.json" || status=1
      cat "$OUT/logs/calibrate.log" >> "$OUT/logs/summary.log"
      ;;
    aa-repetitions)
      mkdir -p build-gpu/aa-repetitions "$OUT/results/aa-repetitions"
      for ((i = 0; i < ${AA_RUNS:-1}; ++i)); do
        k=$(find build-gpu/aa-repetitions -maxdepth 1 -name 'run-*' | wc -l)
        run "aa-repetitions-$k" "$gb" --workload ci --device cuda -q --repetitions "${REPETITIONS:-3}" \
          -o "build-gpu/aa-repetitions/run-$k" || status=1
        cp "build-gpu/aa-repetitions/run-$k/results.json" "$OUT/results/aa-repetitions/run-$k.json"
      done
      ;;
    aa-overlap)
      runs=(build-gpu/aa-repetitions/run-*/results.json)
      run aa-overlap "$gb" calibrate --overlap-only "${runs[@]}" || status=1
      cat "$OUT/logs/aa-overlap.log" >> "$OUT/logs/summary.log"
      ;;
    l2)
      run l2-hot "$gb" --workload gelu --device cuda --variants eager,graph --l2 hot -o "$OUT/results/l2-hot" || status=1
      run l2-cold "$gb" --workload gelu --device cuda --variants eager,graph --l2 cold -o "$OUT/results/l2-cold" || status=1
      ;;
    python)
      run python-baseline python3 scripts/python_replay_baseline.py --output "$OUT/results/python-baseline.json" || status=1
      ;;
    targets)
      py=()
      [[ -f "$OUT/results/python-baseline.json" ]] && py=(--python "$OUT/results/python-baseline.json")
      run blog-targets python3 scripts/blog_targets.py "$OUT/results/blog/results.json" "${py[@]}" || status=1
      run blog-table python3 scripts/blog_table.py "$OUT/results/blog/results.json" || status=1
      ;;
    profile-off)
      run blog-profile-off "$gb" --workload blog --cases gelu-small,gelu-large,replay-overhead --profile off \
        -o "$OUT/results/blog-profile-off" || status=1
      ;;
    models-export)
      env PYTHON="${PYTHON:-python3}" JOBS="${MODEL_JOBS:-4}" scripts/models-suite.sh models models/suite.json \
        > "$OUT/logs/models-export.log" 2>&1 &
      export_pid=$!
      echo "=== models-export: started in the background (pid $export_pid)" | tee -a "$OUT/logs/summary.log"
      ;;
    wait-export)
      wait_export
      ;;
    models)
      py=${PYTHON:-python3}
      wait_export
      [[ -f models/suite.json ]] ||
        run models-export env PYTHON="$py" JOBS="${MODEL_JOBS:-4}" scripts/models-suite.sh models models/suite.json || status=1
      run models "$gb" run --config configs/models.json "${model_args[@]}" -o "$OUT/results/models" || status=1
      mkdir -p "$OUT/results/models"
      cp models/suite.json "$OUT/results/models/exported-suite.json" 2>/dev/null
      side_by_side=()
      [[ -f "$OUT/results/models/results.json" ]] && side_by_side=(--graphbench "$OUT/results/models/results.json")
      run models-python "$py" scripts/python_baseline.py --suite configs/models.json "${side_by_side[@]}" \
          "${python_args[@]}" -o "$OUT/results/models/python-baseline.json" || status=1
      ;;
    decode-export)
      env PYTHON="${PYTHON:-python3}" JOBS=2 scripts/decode-suite.sh models models/decode.json > "$OUT/logs/decode-export.log" 2>&1 &
      decode_export_pid=$!
      echo "=== decode-export: started in the background (pid $decode_export_pid)" | tee -a "$OUT/logs/summary.log"
      ;;
    decode)
      py=${PYTHON:-python3}
      wait_decode_export
      [[ -f models/decode.json ]] || run decode-export env PYTHON="$py" JOBS=2 scripts/decode-suite.sh models models/decode.json || status=1
      run decode "$gb" run --config configs/decode.json "${model_args[@]}" -o "$OUT/results/decode" || status=1
      mkdir -p "$OUT/results/decode"
      side_by_side=()
      [[ -f "$OUT/results/decode/results.json" ]] && side_by_side=(--graphbench "$OUT/results/decode/results.json")
      run decode-python "$py" scripts/python_baseline.py --suite configs/decode.json "${side_by_side[@]}" \
          "${python_args[@]}" -o "$OUT/results/decode/python-baseline.json" || status=1
      ;;
    train-pt2)
      py=${PYTHON:-python3}
      run train-pt2-export "$py" scripts/export_model.py torchvision:resnet18 --batch 32 --mode train --format pt2 \
        --channels-last --optimizer sgd --lr 0.01 --momentum 0.9 -o models --suite models/train-pt2.json || status=1
      run train-pt2-export-mobilenet "$py" scripts/export_model.py torchvision:mobilenet_v3_small --batch 32 \
        --mode train --format pt2 --channels-last --optimizer adam -o models --suite models/train-pt2.json --append \
        || status=1
      run train-pt2 "$gb" run --config models/train-pt2.json "${model_args[@]}" -o "$OUT/results/train-pt2" || status=1
      run train-pt2-python "$py" scripts/python_baseline.py --suite models/train-pt2.json \
        --graphbench "$OUT/results/train-pt2/results.json" "${python_args[@]}" \
        -o "$OUT/results/train-pt2/python-baseline.json" || status=1
      ;;
    own-code)
      py=${PYTHON:-python3}
      formats=${OWN_CODE_FORMATS:-pt}
      rm -f models/own-code*.json
      # The exports side by side (each an Inductor compile of a minute or two with pt2), each into a
      # suite of its own, then joined: --append to one file from several processes would race.
      export_pids=()
      for mode in inference train; do
        run "own-code-export-example-$mode" "$py" scripts/export_model.py py:examples/conv_attention.py:make_model \
          --batch 8 --mode "$mode" --format "$formats" -o models --suite "models/own-code-example-$mode.json" &
        export_pids+=($!)
        run "own-code-export-tagger-$mode" "$py" scripts/export_model.py py:tests.cli.own_code.token_tagger:make_model \
          --batch 16 --mode "$mode" --format "$formats" -o models --suite "models/own-code-tagger-$mode.json" &
        export_pids+=($!)
      done
      if [[ ,$formats, == *,pt2,* ]]; then
        run own-code-export-dynamic "$py" scripts/export_model.py py:examples/conv_attention.py:make_model --batch 8 \
          --dynamic-batch 64 --format pt2 -o models --suite models/own-code-dynamic.json &
        export_pids+=($!)
      fi
      for pid in "${export_pids[@]}"; do wait "$pid" || status=1; done
      "$py" - models/own-code.json models/own-code-example-*.json models/own-code-tagger-*.json <<'JOIN' || status=1
import json, sys
suite = None
for name in sys.argv[2:]:
    with open(name) as f:
        part = json.load(f)
    if suite is None:
        suite = dict(part, suite="own-code", cases=[])
    suite["cases"] += part["cases"]
with open(sys.argv[1], "w") as f:
    json.dump(suite, f, indent=2)
JOIN
      run own-code "$gb" run --config models/own-code.json "${model_args[@]}" -o "$OUT/results/own-code" || status=1
      if [[ -f models/own-code-dynamic.json ]]; then
        run own-code-sweep "$gb" run --config models/own-code-dynamic.json --sweep batch=1,8,32,64 "${model_args[@]}" \
          -o "$OUT/results/own-code-sweep" || status=1
      fi
      mkdir -p "$OUT/results/own-code"
      cp models/own-code.json "$OUT/results/own-code/exported-suite.json" 2>/dev/null
      run own-code-python "$py" scripts/python_baseline.py --suite models/own-code.json \
        --graphbench "$OUT/results/own-code/results.json" "${python_args[@]}" \
        -o "$OUT/results/own-code/python-baseline.json" || status=1
      ;;
    scopes-export)
      scopes_export "${SCOPES_SUITE:-models/scopes.json}" > /dev/null &
      scopes_export_pid=$!
      scopes_exported=1
      echo "=== scopes-export: started in the background (pid $scopes_export_pid)" | tee -a "$OUT/logs/summary.log"
      ;;
    scopes)
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
      ;;
    mobilenet-adam)
      run mobilenet-export "${PYTHON:-python3}" scripts/export_model.py torchvision:mobilenet_v3_small --batch 32 \
        --mode train --format pt --optimizer adam -o models --suite models/mobilenet.json || status=1
      run mobilenet-adam "$gb" run --config models/mobilenet.json "${model_args[@]}" -o "$OUT/results/mobilenet-adam" || status=1
      ;;
    sweep-export)
      env PYTHON="${PYTHON:-python3}" scripts/sweep-models.sh models > "$OUT/logs/sweep-export.log" 2>&1 &
      sweep_export_pid=$!
      echo "=== sweep-export: started in the background (pid $sweep_export_pid)" | tee -a "$OUT/logs/summary.log"
      ;;
    sweeps)
      wait_sweep_export
      [[ -f models/hf-gpt2-b1-decode-m256-p128-bfloat16.pt2 && -f models/resnet18-bmax256.pt2 ]] ||
        run sweep-export env PYTHON="${PYTHON:-python3}" scripts/sweep-models.sh models || status=1
      read -r -a sweep_args <<< "${SWEEP_ARGS:-}"
      # Disk use every 10 s while the sweeps run (AOTInductor unpacks each package it loads).
      ( while sleep 10; do { date +%T; df -h / | tail -1; du -sh /tmp 2> /dev/null; } >> "$OUT/logs/disk-watch.log"; done ) &
      watch_pid=$!
      # The model sweep apart, so that a failure of its packages cannot cost the others' results.
      run sweeps "$gb" run --config configs/sweeps.json --cases linear-dropout-train,gelu,mnist-step "${sweep_args[@]}" \
        -o "$OUT/results/sweeps" || status=1
      run sweeps-models "$gb" run --config configs/sweeps.json --cases gpt2-decode,resnet18-dynamic "${sweep_args[@]}" \
        -o "$OUT/results/sweeps-models" || status=1
      kill "$watch_pid" 2> /dev/null
      if python3 -c "import matplotlib" 2> /dev/null; then
        for dir in sweeps sweeps-models; do
          [[ -f $OUT/results/$dir/results.json ]] &&
            { run "$dir-plot" python3 scripts/plot_sweep.py "$OUT/results/$dir/results.json" --output-dir "$OUT/results/$dir" || status=1; }
        done
      fi
      ;;
    cache-state)
      py=${PYTHON:-python3}
      tiny_llama=(--hf-config hidden_size=256 --hf-config intermediate_size=512 --hf-config num_hidden_layers=2
                  --hf-config num_attention_heads=4 --hf-config num_key_value_heads=2 --hf-config vocab_size=1024)
      llama_state=(hf:llama "${tiny_llama[@]}" --decode --cache-as-state --max-seq 256 --pos 128 --batch 2)
      # The five exports side by side (their times are not the point here), each into a suite of its
      # own, then joined.
      run cache-state-exports parallel_exports \
        "cache-state-a|py:examples/tiny_decode.py:make_model --batch 2 --format pt" \
        "cache-state-b|py:examples/tiny_decode.py:make_model --batch 2 --dynamic-batch 8 --format pt2" \
        "cache-state-c|py:examples/tiny_decode.py:make_model --batch 2 --dynamic-batch 8 --dynamic-cache 512 --format pt2" \
        "cache-state-llama-a|${llama_state[*]} --format pt" \
        "cache-state-llama-b|${llama_state[*]} --dynamic-batch 8 --format pt2" || status=1
      join_suites models/cache-state.json models/cache-state-a.json models/cache-state-b.json
      join_suites models/cache-state-length.json models/cache-state-a.json models/cache-state-c.json
      join_suites models/cache-state-llama.json models/cache-state-llama-a.json models/cache-state-llama-b.json
      run cache-state "$gb" run --config models/cache-state.json --sweep batch=1,2,4,8 "${model_args[@]}" \
        -o "$OUT/results/cache-state" || status=1
      run cache-state-llama "$gb" run --config models/cache-state-llama.json --sweep batch=1,2,4,8 "${model_args[@]}" \
        -o "$OUT/results/cache-state-llama" || status=1
      # The cache's length at the export's batch (2): the TorchScript step reads it from its caches,
      # the package takes every length up to 512.
      run cache-state-length "$gb" run --config models/cache-state-length.json \
        --sweep cache="${CACHE_LENGTHS:-64,128,256,512}" "${model_args[@]}" -o "$OUT/results/cache-state-length" || status=1
      cp models/cache-state-length.json models/*-cmax*.json "$OUT/results/cache-state-length/" 2>/dev/null
      mkdir -p "$OUT/results/cache-state-llama"
      cp models/cache-state*.json models/*-state*.json "$OUT/results/cache-state-llama/" 2>/dev/null
      ;;
    serving-export)
      export_serving serving-llama-export models > /dev/null &
      serving_export_pid=$!
      serving_exported=1
      echo "=== serving-export: started in the background (pid $serving_export_pid)" | tee -a "$OUT/logs/summary.log"
      ;;
    serving-llama)
      batches=${SERVING_BATCHES:-1,2,4,$(seq -s, 8 8 256)}
      read -r -a serving_args <<< "${SERVING_ARGS:---max-time 3 --profile off}"
      wait_all_exports
      [[ -n $serving_exported ]] || export_serving serving-llama-export models || status=1
      mkdir -p "$OUT/results/serving-llama"
      package_facts "$(serving_package models)" > "$OUT/results/serving-llama/package.txt" 2>&1
      # Disk use every 10 s while the sweep runs (each load unpacks the package in the temporary directory).
      ( while sleep 10; do { date +%T; df -h / /tmp | tail -n +2; du -sh /tmp 2> /dev/null; } >> "$OUT/logs/serving-disk-watch.log"; done ) &
      watch_pid=$!
      run serving-llama "$gb" run --config models/serving-llama.json --variants eager,graph --sweep batch="$batches" \
        "${serving_args[@]}" -o "$OUT/results/serving-llama" || status=1
      kill "$watch_pid" 2> /dev/null
      cp models/serving-llama.json "$OUT/results/serving-llama/exported-suite.json" 2>/dev/null
      ;;
    serving-reexport)
      # The same export again, with the compile cache that the first one filled
      # ($TORCHINDUCTOR_CACHE_DIR): where the time goes the second time (results/serving-llama/reexport.txt).
      if [[ -z $(serving_package models) ]]; then
        echo "=== serving-reexport: skipped, serving-llama made no package" | tee -a "$OUT/logs/summary.log"
        continue
      fi
      export_serving serving-llama-reexport models/reexport || status=1
      mkdir -p "$OUT/results/serving-llama"
      package_facts "$(serving_package models/reexport)" > "$OUT/results/serving-llama/reexport.txt" 2>&1
      du -sh "$TORCHINDUCTOR_CACHE_DIR" >> "$OUT/results/serving-llama/reexport.txt" 2>&1
      ;;
    serving-weights-apart)
      # The serving decoder exported with its weights beside the library instead of inside it
      # (AOTInductor's package_constants_in_so=false, a binary blob in the package): whether the C++
      # compile, which wrote the weights into the library, gets shorter, and whether graphbench's
      # loader runs such a package (a short run at batch 8): results/serving-weights-apart.
      mkdir -p "$OUT/results/serving-weights-apart"
      export_serving serving-weights-apart-export models/weights-apart \
        --inductor-config aot_inductor.package_constants_in_so=false \
        --inductor-config aot_inductor.package_constants_on_disk_format='"binary_blob"' || status=1
      package_facts "$(serving_package models/weights-apart)" > "$OUT/results/serving-weights-apart/package.txt" 2>&1
      run serving-weights-apart "$gb" run --config models/weights-apart/serving-llama.json --variants eager,graph \
        --max-time 5 --profile off -o "$OUT/results/serving-weights-apart" || status=1
      ;;
    decode-llama-pt)
      py=${PYTHON:-python3}
      run decode-llama-pt-export env PYTHON="$py" MODELS=llama FORMATS=pt scripts/decode-suite.sh models \
        models/decode-llama-pt.json || status=1
      run decode-llama-pt "$gb" run --config models/decode-llama-pt.json "${model_args[@]}" \
        -o "$OUT/results/decode-llama-pt" || status=1
      run decode-llama-pt-python "$py" scripts/python_baseline.py --suite models/decode-llama-pt.json \
        --graphbench "$OUT/results/decode-llama-pt/results.json" "${python_args[@]}" \
        -o "$OUT/results/decode-llama-pt/python-baseline.json" || status=1
      ;;
    vit-pt)
      py=${PYTHON:-python3}
      run vit-pt-export "$py" scripts/export_model.py torchvision:vit_b_16 --batch 1 --format pt -o models \
        --suite models/vit-pt.json || status=1
      run vit-pt "$gb" run --config models/vit-pt.json "${model_args[@]}" -o "$OUT/results/vit-pt" || status=1
      run vit-pt-python "$py" scripts/python_baseline.py --suite models/vit-pt.json \
        --graphbench "$OUT/results/vit-pt/results.json" "${python_args[@]}" -o "$OUT/results/vit-pt/python-baseline.json" || status=1
      ;;
    trace)
      run trace "$gb" --workload linear_dropout --cases linear-dropout-small --variants eager,graph \
        --trace "$OUT/results/traces" -o "$OUT/results/traces" || status=1
      run trace-timeline python3 scripts/trace_timeline.py "$OUT/results/traces/linear-dropout-small.eager.trace.json" \
        "$OUT/results/traces/linear-dropout-small.graph.trace.json" --output "$OUT/results/traces/timeline.png" \
        --title "Linear+Dropout training step (batch 32): one eager step above one replay" || status=1
      ;;
    ddp)
      nvlink_multicast_off
      nvidia-smi topo -m > "$OUT/logs/nvidia-smi-topo.log" 2>&1
      read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
      run ddp-n1 "$gb" run --config configs/ddp.json --nproc 1 "${ddp_args[@]}" -o "$OUT/results/ddp-n1" || status=1
      run ddp-n2 "$gb" run --config configs/ddp.json --nproc 2 "${ddp_args[@]}" -o "$OUT/results/ddp-n2" || status=1
      for n in 1 2; do
        run "ddp-before-n$n" "$gb" run --config configs/ddp.json --nproc "$n" "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
          --grad-overlap off --grad-bucket-mb 25 -o "$OUT/results/ddp-before-n$n" || status=1
      done
      run ddp-table-before python3 scripts/ddp_table.py "$OUT/results/ddp-before-n2/results.json" \
        --n1 "$OUT/results/ddp-before-n1/results.json" --title "Before: the all-reduce after the backward pass" || status=1
      run ddp-table python3 scripts/ddp_table.py "$OUT/results/ddp-n2/results.json" --n1 "$OUT/results/ddp-n1/results.json" \
        --title "After: each bucket all-reduced during the backward pass" || status=1
      ;;
    ddp-copy-engine)
      nvlink_multicast_off
      read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
      chunk_mb=${DDP_CHUNK_MB:-8}
      for n in 1 2; do
        run "ddp-ce-n$n" "$gb" run --config configs/ddp.json --nproc "$n" "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
          --grad-transport copy-engine -o "$OUT/results/ddp-ce-n$n" || status=1
      done
      run ddp-ce-chunks-n2 "$gb" run --config configs/ddp.json --nproc 2 "${ddp_args[@]}" --cases ddp-linear-dropout-large \
        --grad-transport copy-engine --grad-chunk-mb "$chunk_mb" -o "$OUT/results/ddp-ce-chunks-n2" || status=1
      run ddp-table-ce python3 scripts/ddp_table.py "$OUT/results/ddp-ce-n2/results.json" --n1 "$OUT/results/ddp-ce-n1/results.json" \
        --title "The copy-engine all-reduce (--grad-transport copy-engine)" || status=1
      run ddp-table-ce-chunks python3 scripts/ddp_table.py "$OUT/results/ddp-ce-chunks-n2/results.json" \
        --n1 "$OUT/results/ddp-ce-n1/results.json" \
        --title "The copy-engine all-reduce with gradient chunks (--grad-chunk-mb $chunk_mb)" || status=1
      ;;
    ddp-chunks)
      nvlink_multicast_off
      read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
      chunk_mb=${DDP_CHUNK_MB:-8}
      for n in 1 2; do
        run "ddp-chunks-n$n" "$gb" run --config configs/ddp.json --nproc "$n" "${ddp_args[@]}" \
          --cases ddp-linear-dropout-large --grad-chunk-mb "$chunk_mb" -o "$OUT/results/ddp-chunks-n$n" || status=1
      done
      run ddp-table-chunks python3 scripts/ddp_table.py "$OUT/results/ddp-chunks-n2/results.json" \
        --n1 "$OUT/results/ddp-chunks-n1/results.json" --title "With gradient chunks (--grad-chunk-mb $chunk_mb)" || status=1
      ;;
    ddp-trace)
      # The large case at N=2 traced on both ranks, unchunked and with gradient chunks; one step of
      # rank 0 above rank 1 drawn for each (where the all-reduces run beside backward's products).
      nvlink_multicast_off
      run all-reduce-overlap "${PYTHON:-python3}" -m torch.distributed.run --standalone --nproc-per-node 2 scripts/all_reduce_overlap.py \
        || status=1
      for chunks in ${DDP_TRACE_CHUNKS:-0 16}; do
        dir="$OUT/results/ddp-trace-chunks$chunks"
        run "ddp-trace-chunks$chunks" "$gb" run --config configs/ddp.json --nproc 2 --max-time 2 --variants graph \
          --cases ddp-linear-dropout-large --grad-chunk-mb "$chunks" --trace "$dir" -o "$dir" || status=1
        run "ddp-trace-timeline-chunks$chunks" python3 scripts/trace_timeline.py \
          "$dir/ddp-linear-dropout-large.graph.rank0.trace.json" "$dir/ddp-linear-dropout-large.graph.rank1.trace.json" \
          --output "$dir/timeline.png" --title "Large data-parallel step, replayed: rank 0 above rank 1 (--grad-chunk-mb $chunks)" \
          || status=1
      done
      ;;
    ddp-python)
      nvlink_multicast_off
      gb_n2=()
      [[ -f $OUT/results/ddp-n2/results.json ]] && gb_n2=(--graphbench "$OUT/results/ddp-n2/results.json")
      run ddp-python "${PYTHON:-python3}" scripts/python_ddp_baseline.py --config configs/ddp.json --nproc 2 "${gb_n2[@]}" \
        -o "$OUT/results/python-ddp.json" || status=1
      ;;
    ddp-bf16)
      nvlink_multicast_off
      read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
      run ddp-bf16-n2 "$gb" run --config configs/ddp.json --nproc 2 "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
        --grad-dtype bfloat16 -o "$OUT/results/ddp-bf16-n2" || status=1
      n1=()
      [[ -f $OUT/results/ddp-n1/results.json ]] && n1=(--n1 "$OUT/results/ddp-n1/results.json")
      run ddp-table-bf16 python3 scripts/ddp_table.py "$OUT/results/ddp-bf16-n2/results.json" "${n1[@]}" \
        --title "bfloat16 gradients (N=1 column: float32)" || status=1
      ;;
    *)
      echo "gpu-check.sh: unknown stage $stage" >&2
      exit 2
      ;;
  esac
  { echo "after $stage:"; df -h /tmp "$root"; } >> "$OUT/logs/disk.log" 2>&1
  # Packed after every stage, so that a call cut short by its time limit still returns its logs.
  tar czf "$OUT/gpu-results.tgz" -C "$OUT" logs results $([[ -d $OUT/tutorial ]] && echo tutorial)
done
exit $status
