# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): your own models, into results/NAME. A NAME-export
# stage starts its exports in the background (give it first); the stage that needs them waits, so
# that no compile disturbs its timings. Exports go to models/ (not committed); Python's figures
# (scripts/python_baseline.py) beside graphbench's.
#   models-export, models  configs/models.json ($PYTHON with torch, torchvision, transformers;
#             $MODEL_JOBS exports at a time, default 4); wait-export waits for models-export
#   decode-export, decode  configs/decode.json's decoders
#   train-pt2 configs/models.json's whole training steps as AOTInductor packages alone
#   own-code  your own code (docs/models.md): examples/conv_attention.py, tests/cli/own_code/token_tagger.py,
#             as $OWN_CODE_FORMATS (default pt; pt,pt2 adds packages, one swept: results/own-code-sweep)
#   mobilenet-adam  MobileNetV3-Small's training step with Adam, whose validation once failed
#   vit-pt    ViT-B/16 as TorchScript, whose reshape once kept it from being captured
#   sweep-export, sweeps  configs/sweeps.json ($SWEEP_ARGS): results/sweeps and results/sweeps-models,
#             drawn where matplotlib is
#   trace     the blog's Linear+Dropout step with --trace, one eager step above one replay drawn
#   decode-llama-pt  configs/decode.json's Llama-class TorchScript cases alone
#   cache-state  a decoding step whose KV cache is state (docs/models.md): examples/tiny_decode.py and
#             a two-layer hf:llama swept over batch (results/cache-state, -llama), then over the
#             cache's length, $CACHE_LENGTHS (default 64,128,256,512) (results/cache-state-length)

# models_export run|background: configs/models.json's models exported into models/suite.json.
models_export() { "$1" models-export env PYTHON="$py" JOBS="${MODEL_JOBS:-4}" scripts/models-suite.sh models models/suite.json; }
decode_export() { "$1" decode-export env PYTHON="$py" JOBS=2 scripts/decode-suite.sh models models/decode.json; }
sweep_export() { "$1" sweep-export env PYTHON="$py" scripts/sweep-models.sh models; }
stage_models_export() { models_export background; }
stage_wait_export() { wait_for models-export; }
stage_decode_export() { decode_export background; }
stage_sweep_export() { sweep_export background; }

stage_models() {
  wait_for models-export
  [[ -f models/suite.json ]] || models_export run || status=1
  suite_with_python models configs/models.json "$OUT/results/models" models/suite.json
}

stage_decode() {
  wait_for decode-export
  [[ -f models/decode.json ]] || decode_export run || status=1
  suite_with_python decode configs/decode.json "$OUT/results/decode"
}

stage_train_pt2() {
  export_model train-pt2-export torchvision:resnet18 --batch 32 --mode train --format pt2 \
    --channels-last --optimizer sgd --lr 0.01 --momentum 0.9 -o models --suite models/train-pt2.json
  export_model train-pt2-export-mobilenet torchvision:mobilenet_v3_small --batch 32 \
    --mode train --format pt2 --channels-last --optimizer adam -o models --suite models/train-pt2.json --append
  suite_with_python train-pt2 models/train-pt2.json "$OUT/results/train-pt2"
}

stage_own_code() {
  formats=${OWN_CODE_FORMATS:-pt}
  rm -f models/own-code*.json
  # The exports side by side (each an Inductor compile of a minute or two with pt2), then joined.
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
  suite_with_python own-code models/own-code.json "$OUT/results/own-code" models/own-code.json
  [[ ! -f models/own-code-dynamic.json ]] || run_suite own-code-sweep models/own-code-dynamic.json --sweep batch=1,8,32,64
}

stage_mobilenet_adam() {
  export_model mobilenet-export torchvision:mobilenet_v3_small --batch 32 --mode train --format pt --optimizer adam \
    -o models --suite models/mobilenet.json
  run_suite mobilenet-adam models/mobilenet.json
}

stage_sweeps() {
  wait_for sweep-export
  [[ -f models/hf-gpt2-b1-decode-m256-p128-bfloat16.pt2 && -f models/resnet18-bmax256.pt2 ]] || sweep_export run || status=1
  read -r -a sweep_args <<< "${SWEEP_ARGS:-}"
  disk_watch "$OUT/logs/disk-watch.log" /
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
  export_model vit-pt-export torchvision:vit_b_16 --batch 1 --format pt -o models --suite models/vit-pt.json
  suite_with_python vit-pt models/vit-pt.json "$OUT/results/vit-pt"
}

stage_trace() {
  run trace "$gb" --workload linear_dropout --cases linear-dropout-small --variants eager,graph \
    --trace "$OUT/results/traces" -o "$OUT/results/traces" || status=1
  run trace-timeline python3 scripts/trace_timeline.py "$OUT/results/traces/linear-dropout-small.eager.trace.json" \
    "$OUT/results/traces/linear-dropout-small.graph.trace.json" --output "$OUT/results/traces/timeline.png" \
    --title "Linear+Dropout training step (batch 32): one eager step above one replay" || status=1
}

stage_decode_llama_pt() {
  run decode-llama-pt-export env PYTHON="$py" MODELS=llama FORMATS=pt scripts/decode-suite.sh models \
    models/decode-llama-pt.json || status=1
  suite_with_python decode-llama-pt models/decode-llama-pt.json "$OUT/results/decode-llama-pt"
}

stage_cache_state() {
  tiny_llama=(--hf-config hidden_size=256 --hf-config intermediate_size=512 --hf-config num_hidden_layers=2
              --hf-config num_attention_heads=4 --hf-config num_key_value_heads=2 --hf-config vocab_size=1024)
  llama_state=(hf:llama "${tiny_llama[@]}" --decode --cache-as-state --max-seq 256 --pos 128 --batch 2)
  # The five exports side by side (their times are not the point here), then joined.
  local tiny=py:examples/tiny_decode.py:make_model
  run cache-state-exports scripts/export-parallel.sh --logs "$OUT/logs" \
    ::: "$tiny" --batch 2 --format pt -o models --suite models/cache-state-a.json \
    ::: "$tiny" --batch 2 --dynamic-batch 8 --format pt2 -o models --suite models/cache-state-b.json \
    ::: "$tiny" --batch 2 --dynamic-batch 8 --dynamic-cache 512 --format pt2 -o models --suite models/cache-state-c.json \
    ::: "${llama_state[@]}" --format pt -o models --suite models/cache-state-llama-a.json \
    ::: "${llama_state[@]}" --dynamic-batch 8 --format pt2 -o models --suite models/cache-state-llama-b.json || status=1
  "$py" scripts/suites.py join models/cache-state.json models/cache-state-a.json models/cache-state-b.json
  "$py" scripts/suites.py join models/cache-state-length.json models/cache-state-a.json models/cache-state-c.json
  "$py" scripts/suites.py join models/cache-state-llama.json models/cache-state-llama-a.json models/cache-state-llama-b.json
  run_suite cache-state models/cache-state.json --sweep batch=1,2,4,8
  run_suite cache-state-llama models/cache-state-llama.json --sweep batch=1,2,4,8
  # The cache's length at the export's batch: the TorchScript step reads it from its caches.
  run_suite cache-state-length models/cache-state-length.json --sweep cache="${CACHE_LENGTHS:-64,128,256,512}"
  cp models/cache-state-length.json models/*-cmax*.json "$OUT/results/cache-state-length/" 2>/dev/null
  mkdir -p "$OUT/results/cache-state-llama"
  cp models/cache-state*.json models/*-state*.json "$OUT/results/cache-state-llama/" 2>/dev/null
}
