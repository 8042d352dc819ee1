# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): issue 42's serving sweep and its package
# (docs/sweeps.md, docs/models.md), into results/NAME.
#   serving-export  starts serving-llama's export in the background
#   serving-llama  configs/decode.json's Llama-class decoder at $SERVING_MAX_SEQ (default 4096)
#             positions, one package for every batch up to 256, swept over vLLM's sizes
#             ($SERVING_BATCHES) with eager and graph ($SERVING_ARGS, default --max-time 3 --profile
#             off); the package's size and export times in package.txt
#   serving-reexport  the same export with the compile cache the first filled (reexport.txt there)
#   serving-weights-apart  the weights beside the library, not in it: a shorter C++ compile?
# Issue 50's real-width decoder (hf:mistral, width 4096) over vLLM's 35 sizes (results/NVIDIA-H200/serving-wide):
#   serving-wide-export  its export into models/serving-wide, in the background (2.27 GB)
#   serving-wide-sweep  waits for the exports, sweeps $SERVING_BATCHES (default the 35 sizes) into
#             build-gpu/serving-wide/part-$SERVING_PART (default 1)
#   serving-wide-merge  the parts joined into one run and its tables written again, with times.log
# The 35 sizes take longer than one call of the device tool allows (600 s): split them over calls
# on a machine that stays warm (build-gpu/ and models/ are kept only then), e.g.
#   SERVING_PART=1 SERVING_BATCHES=1,2,4,8,16,24,32,40,48,56,64,72 \
#     scripts/campaigns/run.sh serving-wide-export serving-wide-sweep      (after gpu-check.sh build)
#   SERVING_PART=2 SERVING_BATCHES=80,88,...,168 scripts/campaigns/run.sh serving-wide-sweep
#   SERVING_PART=3 SERVING_BATCHES=176,184,...,256 scripts/campaigns/run.sh serving-wide-sweep serving-wide-merge

serving_max_seq=${SERVING_MAX_SEQ:-4096}
serving_llama=(hf:llama --hf-config hidden_size=2048 --hf-config intermediate_size=5632 --hf-config num_hidden_layers=6
               --hf-config num_attention_heads=16 --hf-config num_key_value_heads=4 --hf-config vocab_size=32000
               --hf-config max_position_embeddings="$serving_max_seq" --decode --cache-as-state --dtype bfloat16
               --batch 8 --dynamic-batch 256 --format pt2 --max-seq "$serving_max_seq" --pos $((serving_max_seq / 2)))
# serving_export run|background NAME DIR [EXPORT ARGS]: the serving decoder exported into DIR (suite DIR/serving-llama.json).
serving_export() {
  local how=$1 name=$2 dir=$3
  shift 3
  "$how" "$name" "$py" scripts/export_model.py "${serving_llama[@]}" "$@" -o "$dir" --suite "$dir/serving-llama.json"
}
# serving_package DIR: the serving decoder's package in DIR, if it was made; package_facts DIR FILE: its facts.
serving_package() { ls "$1"/hf-llama-bmax256-decode-m"$serving_max_seq"-*-state-bfloat16.pt2 2> /dev/null | head -1; }
package_facts() { python3 scripts/suites.py package-facts "$(serving_package "$1")" > "$2" 2>&1; }
serving_batches=${SERVING_BATCHES:-1,2,4,$(seq -s, 8 8 256)}
read -r -a serving_args <<< "${SERVING_ARGS:---max-time 3 --profile off}"

stage_serving_export() { serving_export background serving-llama-export models; }

stage_serving_llama() {
  wait_all_exports
  [[ ${bg_pids[serving-llama-export]+set} ]] || serving_export run serving-llama-export models || status=1
  mkdir -p "$OUT/results/serving-llama"
  package_facts models "$OUT/results/serving-llama/package.txt"
  # Each load unpacks the package in the temporary directory.
  disk_watch "$OUT/logs/serving-disk-watch.log" / /tmp
  run serving-llama "$gb" run --config models/serving-llama.json --variants eager,graph --sweep batch="$serving_batches" \
    "${serving_args[@]}" -o "$OUT/results/serving-llama" || status=1
  kill "$watch_pid" 2> /dev/null
  cp models/serving-llama.json "$OUT/results/serving-llama/exported-suite.json" 2>/dev/null
}

stage_serving_reexport() {
  if [[ -z $(serving_package models) ]]; then
    echo "=== serving-reexport: skipped, serving-llama made no package" | tee -a "$OUT/logs/summary.log"
    return 0
  fi
  serving_export run serving-llama-reexport models/reexport || status=1
  mkdir -p "$OUT/results/serving-llama"
  package_facts models/reexport "$OUT/results/serving-llama/reexport.txt"
  du -sh "$TORCHINDUCTOR_CACHE_DIR" >> "$OUT/results/serving-llama/reexport.txt" 2>&1
}

stage_serving_weights_apart() {
  mkdir -p "$OUT/results/serving-weights-apart"
  serving_export run serving-weights-apart-export models/weights-apart \
    --inductor-config aot_inductor.package_constants_in_so=false \
    --inductor-config aot_inductor.package_constants_on_disk_format='"binary_blob"' || status=1
  package_facts models/weights-apart "$OUT/results/serving-weights-apart/package.txt"
  run serving-weights-apart "$gb" run --config models/weights-apart/serving-llama.json --variants eager,graph \
    --max-time 5 --profile off -o "$OUT/results/serving-weights-apart" || status=1
}

serving_wide_parts=build-gpu/serving-wide

stage_serving_wide_export() {
  mkdir -p "$serving_wide_parts"
  times_log=$serving_wide_parts/times.log background serving-wide-export "$py" scripts/export_model.py hf:mistral \
    --hf-config hidden_size=4096 --hf-config intermediate_size=14336 --hf-config num_hidden_layers=4 \
    --hf-config num_attention_heads=32 --hf-config num_key_value_heads=8 --hf-config vocab_size=32000 \
    --hf-config max_position_embeddings=4096 --decode --cache-as-state --dtype bfloat16 --batch 8 \
    --dynamic-batch 256 --format pt2 --max-seq 4096 --pos 2048 \
    -o models/serving-wide --suite models/serving-wide/serving-wide.json
}

stage_serving_wide_sweep() {
  local part=${SERVING_PART:-1}
  wait_all_exports
  mkdir -p "$serving_wide_parts"
  ls -l models/serving-wide >> "$serving_wide_parts/times.log" 2>&1
  rm -rf "${serving_wide_parts:?}/part-$part"
  timed "$serving_wide_parts/times.log" "serving-wide-part-$part" "$gb" run --config models/serving-wide/serving-wide.json \
    --variants eager,graph --sweep batch="$serving_batches" --repetitions 1 \
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
