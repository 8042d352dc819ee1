# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): your own models on the GPU: exports (some
# started in the background), their suites run, Python's figures beside them, the sweeps, the KV
# cache as state, traces.
#
#   models-export  starts the export of configs/models.json's models (below) in the background,
#             beside the stages that follow; give it first, and `wait-export` before the
#             first timed stage (the AOTInductor compiles would disturb timings)
#   wait-export    waits for models-export
#   models    your own model: export the models of configs/models.json into models/ (not committed;
#             scripts/models-suite.sh, needs $PYTHON with torch, torchvision, transformers), run the
#             suite, then Python's eager and torch.cuda.graph figures of the same models
#             (scripts/python_baseline.py), side by side in results/models/python-baseline.md
#   decode-export  starts the export of configs/decode.json's decoders (scripts/decode-suite.sh,
#             both models side by side) in the background, like models-export
#   decode    LLM decoding steps: waits for decode-export (or exports), runs configs/decode.json,
#             then Python's eager, torch.cuda.graph, torch.compile and reduce-overhead figures of
#             the same steps (scripts/python_baseline.py), side by side in results/decode/
#   train-pt2 the whole training steps of configs/models.json (ResNet-18 with SGD, MobileNetV3-Small
#             with Adam and dropout, batch 32) as AOTInductor packages alone, exported as
#             scripts/models-suite.sh exports them (channels-last), run, and
#             Python's four figures beside them (results/train-pt2)
#   own-code  your own code (py: models, docs/models.md "Benchmark your own code"): the example
#             examples/conv_attention.py (batch 8) and the token tagger of
#             tests/cli/own_code/token_tagger.py (named as a module, batch 16), each for inference
#             and a training step with the file's own loss, exported ($OWN_CODE_FORMATS, default
#             pt; pt,pt2 adds AOTInductor packages and a dynamic-batch package of the example swept
#             over batch 1 to 64), run, and Python's four figures beside them (results/own-code)
#   mobilenet-adam  torchvision's MobileNetV3-Small training step with Adam (TorchScript, batch 32),
#             exported and run alone (results/mobilenet-adam): the case that validation once failed
#   sweep-export  starts the export of configs/sweeps.json's decoding steps (scripts/sweep-models.sh,
#             one package per batch size) in the background, like models-export
#   sweeps    waits for sweep-export (or exports), runs configs/sweeps.json ($SWEEP_ARGS): its
#             steps into results/sweeps, its model cases into results/sweeps-models; then draws
#             each sweep (scripts/plot_sweep.py) where matplotlib is
#   vit-pt    torchvision's ViT-B/16 as TorchScript (batch 1), exported, run and timed in Python in one
#             call (results/vit-pt): the traced model whose reshape once kept it from being captured
#   trace     the blog's Linear+Dropout training step, eager and captured, with --trace: Chrome
#             traces in results/traces, and one eager step above one replay drawn from them
#             (scripts/trace_timeline.py, results/traces/timeline.png)
#   decode-llama-pt  the Llama-class TorchScript cases of configs/decode.json alone: exported
#             (MODELS=llama FORMATS=pt scripts/decode-suite.sh), run, and Python's four figures
#             beside them (results/decode-llama-pt)
#   cache-state  a decoding step whose KV cache is state (docs/models.md, "The KV cache as state"):
#             examples/tiny_decode.py as TorchScript and as one dynamic-batch AOTInductor package, and
#             a two-layer hf:llama step with --cache-as-state (TorchScript at batch 2, one package
#             for batch 1 to 8; the four exported side by side), each run on the GPU swept over
#             batch 1, 2, 4, 8 with eager, static and graph validated (results/cache-state, results/cache-state-llama); the packages'
#             manifests hold their export times. Then the cache's length: tiny_decode as one package
#             for every batch up to 8 and every length up to 512 (--dynamic-cache 512, exported beside
#             the four), swept with the TorchScript file over lengths 64, 128, 256, 512 at batch 2
#             ($CACHE_LENGTHS; results/cache-state-length)

export_pid=
decode_export_pid=
sweep_export_pid=
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
wait_all_exports() {
  wait_export; wait_decode_export; wait_sweep_export; wait_serving_export; wait_scopes_export; wait_serving_wide_export
}
stage_models_export() {
  env PYTHON="${PYTHON:-python3}" JOBS="${MODEL_JOBS:-4}" scripts/models-suite.sh models models/suite.json \
    > "$OUT/logs/models-export.log" 2>&1 &
  export_pid=$!
  echo "=== models-export: started in the background (pid $export_pid)" | tee -a "$OUT/logs/summary.log"
}

stage_wait_export() {
  wait_export
}

stage_models() {
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
}

stage_decode_export() {
  env PYTHON="${PYTHON:-python3}" JOBS=2 scripts/decode-suite.sh models models/decode.json > "$OUT/logs/decode-export.log" 2>&1 &
  decode_export_pid=$!
  echo "=== decode-export: started in the background (pid $decode_export_pid)" | tee -a "$OUT/logs/summary.log"
}

stage_decode() {
  py=${PYTHON:-python3}
  wait_decode_export
  [[ -f models/decode.json ]] || run decode-export env PYTHON="$py" JOBS=2 scripts/decode-suite.sh models models/decode.json || status=1
  run decode "$gb" run --config configs/decode.json "${model_args[@]}" -o "$OUT/results/decode" || status=1
  mkdir -p "$OUT/results/decode"
  side_by_side=()
  [[ -f "$OUT/results/decode/results.json" ]] && side_by_side=(--graphbench "$OUT/results/decode/results.json")
  run decode-python "$py" scripts/python_baseline.py --suite configs/decode.json "${side_by_side[@]}" \
      "${python_args[@]}" -o "$OUT/results/decode/python-baseline.json" || status=1
}

stage_train_pt2() {
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
}

stage_own_code() {
  py=${PYTHON:-python3}
  formats=${OWN_CODE_FORMATS:-pt}
  rm -f models/own-code*.json
  # The exports side by side (each an Inductor compile of a minute or two with pt2), each into a
  # suite of its own (scripts/export-parallel.sh, logs in $OUT/logs), then joined.
  local mode exports=()
  for mode in inference train; do
    exports+=(::: py:examples/conv_attention.py:make_model --batch 8 --mode "$mode" --format "$formats" -o models
              --suite "models/own-code-example-$mode.json"
              ::: py:tests.cli.own_code.token_tagger:make_model --batch 16 --mode "$mode" --format "$formats" -o models
              --suite "models/own-code-tagger-$mode.json")
  done
  [[ ,$formats, == *,pt2,* ]] && exports+=(::: py:examples/conv_attention.py:make_model --batch 8 --dynamic-batch 64
                                           --format pt2 -o models --suite models/own-code-dynamic.json)
  run own-code-exports scripts/export-parallel.sh --logs "$OUT/logs" "${exports[@]}" || status=1
  "$py" scripts/suites.py join models/own-code.json models/own-code-example-*.json models/own-code-tagger-*.json \
    --suite-name own-code || status=1
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
}

stage_mobilenet_adam() {
  run mobilenet-export "${PYTHON:-python3}" scripts/export_model.py torchvision:mobilenet_v3_small --batch 32 \
    --mode train --format pt --optimizer adam -o models --suite models/mobilenet.json || status=1
  run mobilenet-adam "$gb" run --config models/mobilenet.json "${model_args[@]}" -o "$OUT/results/mobilenet-adam" || status=1
}

stage_sweep_export() {
  env PYTHON="${PYTHON:-python3}" scripts/sweep-models.sh models > "$OUT/logs/sweep-export.log" 2>&1 &
  sweep_export_pid=$!
  echo "=== sweep-export: started in the background (pid $sweep_export_pid)" | tee -a "$OUT/logs/summary.log"
}

stage_sweeps() {
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
}

stage_vit_pt() {
  py=${PYTHON:-python3}
  run vit-pt-export "$py" scripts/export_model.py torchvision:vit_b_16 --batch 1 --format pt -o models \
    --suite models/vit-pt.json || status=1
  run vit-pt "$gb" run --config models/vit-pt.json "${model_args[@]}" -o "$OUT/results/vit-pt" || status=1
  run vit-pt-python "$py" scripts/python_baseline.py --suite models/vit-pt.json \
    --graphbench "$OUT/results/vit-pt/results.json" "${python_args[@]}" -o "$OUT/results/vit-pt/python-baseline.json" || status=1
}

stage_trace() {
  run trace "$gb" --workload linear_dropout --cases linear-dropout-small --variants eager,graph \
    --trace "$OUT/results/traces" -o "$OUT/results/traces" || status=1
  run trace-timeline python3 scripts/trace_timeline.py "$OUT/results/traces/linear-dropout-small.eager.trace.json" \
    "$OUT/results/traces/linear-dropout-small.graph.trace.json" --output "$OUT/results/traces/timeline.png" \
    --title "Linear+Dropout training step (batch 32): one eager step above one replay" || status=1
}

stage_decode_llama_pt() {
  py=${PYTHON:-python3}
  run decode-llama-pt-export env PYTHON="$py" MODELS=llama FORMATS=pt scripts/decode-suite.sh models \
    models/decode-llama-pt.json || status=1
  run decode-llama-pt "$gb" run --config models/decode-llama-pt.json "${model_args[@]}" \
    -o "$OUT/results/decode-llama-pt" || status=1
  run decode-llama-pt-python "$py" scripts/python_baseline.py --suite models/decode-llama-pt.json \
    --graphbench "$OUT/results/decode-llama-pt/results.json" "${python_args[@]}" \
    -o "$OUT/results/decode-llama-pt/python-baseline.json" || status=1
}

stage_cache_state() {
  py=${PYTHON:-python3}
  tiny_llama=(--hf-config hidden_size=256 --hf-config intermediate_size=512 --hf-config num_hidden_layers=2
              --hf-config num_attention_heads=4 --hf-config num_key_value_heads=2 --hf-config vocab_size=1024)
  llama_state=(hf:llama "${tiny_llama[@]}" --decode --cache-as-state --max-seq 256 --pos 128 --batch 2)
  # The five exports side by side (their times are not the point here), each into a suite of its
  # own (scripts/export-parallel.sh, logs in $OUT/logs), then joined.
  local tiny=py:examples/tiny_decode.py:make_model
  run cache-state-exports scripts/export-parallel.sh --logs "$OUT/logs" \
    ::: "$tiny" --batch 2 --format pt -o models --suite models/cache-state-a.json \
    ::: "$tiny" --batch 2 --dynamic-batch 8 --format pt2 -o models --suite models/cache-state-b.json \
    ::: "$tiny" --batch 2 --dynamic-batch 8 --dynamic-cache 512 --format pt2 -o models --suite models/cache-state-c.json \
    ::: "${llama_state[@]}" --format pt -o models --suite models/cache-state-llama-a.json \
    ::: "${llama_state[@]}" --dynamic-batch 8 --format pt2 -o models --suite models/cache-state-llama-b.json || status=1
  "${PYTHON:-python3}" scripts/suites.py join models/cache-state.json models/cache-state-a.json models/cache-state-b.json
  "${PYTHON:-python3}" scripts/suites.py join models/cache-state-length.json models/cache-state-a.json models/cache-state-c.json
  "${PYTHON:-python3}" scripts/suites.py join models/cache-state-llama.json models/cache-state-llama-a.json models/cache-state-llama-b.json
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
}
