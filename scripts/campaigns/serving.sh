# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): issue 42's serving sweep and its package
# (docs/sweeps.md, docs/models.md).
#
#   serving-export  starts serving-llama's export in the background, like models-export (serving-llama
#             waits for it and for every other export started so, so that no compile runs beside
#             its timings)
#   serving-llama  issue 42's serving sweep: the Llama-class decoder of configs/decode.json at
#             $SERVING_MAX_SEQ (default 4096) positions, bfloat16, one package for every batch up
#             to 256 (--cache-as-state --dynamic-batch 256), swept over vLLM's sizes 1, 2, 4, 8,
#             16, ..., 256 ($SERVING_BATCHES) with eager and graph: results/serving-llama, whose
#             results.md sets graphbench's capture sizes against vLLM's list; the package's size,
#             its weights' bytes and its export times in results/serving-llama/package.txt
#             ($SERVING_ARGS, default --max-time 3 --profile off)
#   serving-reexport  the serving decoder exported again after serving-llama, with the compile
#             cache the first export filled: its export times in results/serving-llama/reexport.txt
#   serving-weights-apart  the serving decoder exported with its weights beside the library
#             (package_constants_in_so=false, a binary blob): its export times, and a short run at
#             batch 8 (results/serving-weights-apart): whether the C++ compile gets shorter
#
# Issue 50's real-width bfloat16 decoder (results/NVIDIA-H200/serving-wide): hf:mistral at width
# 4096, grouped-query attention 32/8, MLP 14336, 4 layers, vocabulary 32000, 4096 positions, its KV
# cache as state, one package for every batch up to 256, swept over vLLM's 35 sizes with eager and
# graph, every size validated (bfloat16 logits: engine/runner/output_match.h):
#   serving-wide-export  starts its export into models/serving-wide in the background, like
#             models-export (about 140 s on an H200; 2.27 GB)
#   serving-wide-sweep  waits for the exports, then sweeps $SERVING_BATCHES (default vLLM's 35 sizes)
#             into build-gpu/serving-wide/part-$SERVING_PART (default 1), one process
#             (--repetitions 1: each process would load the package again), $SERVING_ARGS (default
#             --max-time 3 --profile off)
#   serving-wide-merge  the parts' records joined into one run (scripts/suites.py merge-results) and
#             its tables written again (graphbench report): results/serving-wide, with the sweep
#             verdict and the judgement against vLLM's list over every size measured (the shared
#             pool is measured within one part only, so a split sweep leaves it out), and
#             build-gpu/serving-wide/times.log, each step's exit code and wall time over the calls
# The 35 sizes take longer than one call of the device tool allows (600 s): split them over calls
# on a machine that stays warm (build-gpu/ and models/ are kept only then), e.g.
#   SERVING_PART=1 SERVING_BATCHES=1,2,4,8,16,24,32,40,48,56,64,72 \
#     scripts/campaigns/run.sh serving-wide-export serving-wide-sweep      (after gpu-check.sh build)
#   SERVING_PART=2 SERVING_BATCHES=80,88,...,168 scripts/campaigns/run.sh serving-wide-sweep
#   SERVING_PART=3 SERVING_BATCHES=176,184,...,256 scripts/campaigns/run.sh serving-wide-sweep serving-wide-merge

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

stage_serving_export() {
  export_serving serving-llama-export models > /dev/null &
  serving_export_pid=$!
  serving_exported=1
  echo "=== serving-export: started in the background (pid $serving_export_pid)" | tee -a "$OUT/logs/summary.log"
}

stage_serving_llama() {
  batches=${SERVING_BATCHES:-1,2,4,$(seq -s, 8 8 256)}
  read -r -a serving_args <<< "${SERVING_ARGS:---max-time 3 --profile off}"
  wait_all_exports
  [[ -n $serving_exported ]] || export_serving serving-llama-export models || status=1
  mkdir -p "$OUT/results/serving-llama"
  python3 scripts/suites.py package-facts "$(serving_package models)" > "$OUT/results/serving-llama/package.txt" 2>&1
  # Disk use every 10 s while the sweep runs (each load unpacks the package in the temporary directory).
  ( while sleep 10; do { date +%T; df -h / /tmp | tail -n +2; du -sh /tmp 2> /dev/null; } >> "$OUT/logs/serving-disk-watch.log"; done ) &
  watch_pid=$!
  run serving-llama "$gb" run --config models/serving-llama.json --variants eager,graph --sweep batch="$batches" \
    "${serving_args[@]}" -o "$OUT/results/serving-llama" || status=1
  kill "$watch_pid" 2> /dev/null
  cp models/serving-llama.json "$OUT/results/serving-llama/exported-suite.json" 2>/dev/null
}

stage_serving_reexport() {
  # The same export again, with the compile cache that the first one filled
  # ($TORCHINDUCTOR_CACHE_DIR): where the time goes the second time (results/serving-llama/reexport.txt).
  if [[ -z $(serving_package models) ]]; then
    echo "=== serving-reexport: skipped, serving-llama made no package" | tee -a "$OUT/logs/summary.log"
    return 0
  fi
  export_serving serving-llama-reexport models/reexport || status=1
  mkdir -p "$OUT/results/serving-llama"
  python3 scripts/suites.py package-facts "$(serving_package models/reexport)" > "$OUT/results/serving-llama/reexport.txt" 2>&1
  du -sh "$TORCHINDUCTOR_CACHE_DIR" >> "$OUT/results/serving-llama/reexport.txt" 2>&1
}

stage_serving_weights_apart() {
  # The serving decoder exported with its weights beside the library instead of inside it
  # (AOTInductor's package_constants_in_so=false, a binary blob in the package): whether the C++
  # compile, which wrote the weights into the library, gets shorter, and whether graphbench's
  # loader runs such a package (a short run at batch 8): results/serving-weights-apart.
  mkdir -p "$OUT/results/serving-weights-apart"
  export_serving serving-weights-apart-export models/weights-apart \
    --inductor-config aot_inductor.package_constants_in_so=false \
    --inductor-config aot_inductor.package_constants_on_disk_format='"binary_blob"' || status=1
  python3 scripts/suites.py package-facts "$(serving_package models/weights-apart)" > "$OUT/results/serving-weights-apart/package.txt" 2>&1
  run serving-weights-apart "$gb" run --config models/weights-apart/serving-llama.json --variants eager,graph \
    --max-time 5 --profile off -o "$OUT/results/serving-weights-apart" || status=1
}

serving_wide_parts=build-gpu/serving-wide
serving_wide_export_pid=
wait_serving_wide_export() { wait_background serving-wide-export "$serving_wide_export_pid"; serving_wide_export_pid=; }

stage_serving_wide_export() {
  mkdir -p "$serving_wide_parts"
  timed "$serving_wide_parts/times.log" serving-wide-export "${PYTHON:-python3}" scripts/export_model.py hf:mistral \
    --hf-config hidden_size=4096 --hf-config intermediate_size=14336 --hf-config num_hidden_layers=4 \
    --hf-config num_attention_heads=32 --hf-config num_key_value_heads=8 --hf-config vocab_size=32000 \
    --hf-config max_position_embeddings=4096 --decode --cache-as-state --dtype bfloat16 --batch 8 \
    --dynamic-batch 256 --format pt2 --max-seq 4096 --pos 2048 \
    -o models/serving-wide --suite models/serving-wide/serving-wide.json > /dev/null &
  serving_wide_export_pid=$!
  echo "=== serving-wide-export: started in the background (pid $serving_wide_export_pid)" | tee -a "$OUT/logs/summary.log"
}

stage_serving_wide_sweep() {
  read -r -a serving_args <<< "${SERVING_ARGS:---max-time 3 --profile off}"
  local part=${SERVING_PART:-1}
  wait_all_exports
  mkdir -p "$serving_wide_parts"
  ls -l models/serving-wide >> "$serving_wide_parts/times.log" 2>&1
  rm -rf "${serving_wide_parts:?}/part-$part"
  timed "$serving_wide_parts/times.log" "serving-wide-part-$part" "$gb" run --config models/serving-wide/serving-wide.json \
    --variants eager,graph --sweep batch="${SERVING_BATCHES:-1,2,4,$(seq -s, 8 8 256)}" --repetitions 1 \
    "${serving_args[@]}" -o "$serving_wide_parts/part-$part" || status=1
}

stage_serving_wide_merge() {
  local dest=$OUT/results/serving-wide
  mkdir -p "$dest"
  python3 scripts/suites.py merge-results "$serving_wide_parts"/part-*/results.json -o "$dest/merged.json" || { status=1; return; }
  timed "$serving_wide_parts/times.log" serving-wide-report "$gb" report "$dest/merged.json" -o "$dest" || status=1
  cp models/serving-wide/serving-wide.json "$dest/exported-suite.json" 2> /dev/null
  cp "$serving_wide_parts/times.log" "$dest/times.log" 2> /dev/null
  grep -A12 "over batch: graph" "$dest/results.md" | head -40
}
