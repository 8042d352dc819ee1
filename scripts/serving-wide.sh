#!/usr/bin/env bash
# Issue 50's real-width bfloat16 decoder on the GPU machine: hf:mistral at width 4096, grouped-query
# attention 32/8, MLP 14336, 4 layers, vocabulary 32000, 4096 positions, its KV cache as state, one
# AOTInductor package for every batch up to 256, swept over vLLM's 35 sizes (1, 2, 4, 8, 16, ...,
# 256) with eager and graph, every size validated (bfloat16 logits: runner/output_match.h).
#
#   scripts/serving-wide.sh STAGE...
#     build     the graphbench binary into build-gpu/ (as scripts/aa-default.sh build)
#     export    scripts/export_model.py into models/serving-wide (about 140 s on an H200; 2.27 GB)
#     sweep     the sweep over $SERVING_BATCHES (default vLLM's 35 sizes) into
#               build-gpu/serving-wide/part-$SERVING_PART (default 1), one process
#               (--repetitions 1: each process would load the package again), $SERVING_ARGS
#               (default --max-time 3 --profile off)
#     merge     the parts' records joined into one run (scripts/suites.py merge-results) and its
#               tables written again (graphbench report): $OUT/results/serving-wide, with the sweep
#               verdict and the judgement against vLLM's list over every size measured (the shared
#               pool is measured within one part only, so a split sweep leaves it out)
#
# The smaller serving decoder (width 2048, 6 layers) took 1057 s for the 35 sizes on an H100,
# more than one call of the device tool allows (600 s): split the sizes over calls, e.g.
#   SERVING_PART=1 SERVING_BATCHES=1,2,4,8,16,24,32,40,48,56,64,72 scripts/serving-wide.sh build export sweep
#   SERVING_PART=2 SERVING_BATCHES=80,88,96,104,112,120,128,136,144,152,160,168 scripts/serving-wide.sh sweep
#   SERVING_PART=3 SERVING_BATCHES=176,184,192,200,208,216,224,232,240,248,256 scripts/serving-wide.sh sweep merge
# (the machine must stay warm between the calls: build-gpu/ and models/ are kept only then).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Written under $SERVING_WORK (default build-gpu/serving-out); each call ends by packing it into
# $OUT/serving-wide.tgz (the device tool returns few files).
DEVICE_OUT=${OUT:-$root/gpu-out}
OUT=${SERVING_WORK:-$root/build-gpu/serving-out}
mkdir -p "$OUT/logs" "$OUT/results/serving-wide" "$DEVICE_OUT"
pack() { tar czf "$DEVICE_OUT/serving-wide.tgz" -C "$OUT" results logs; }
trap pack EXIT
[[ -f .device-kit/device-env.sh ]] && source .device-kit/device-env.sh
export GRAPHBENCH_GIT_COMMIT=${GRAPHBENCH_GIT_COMMIT:-unknown}
export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-$root/.inductor-cache}
gb=build-gpu/graphbench
parts=build-gpu/serving-wide
vllm_sizes=1,2,4,$(seq -s, 8 8 256)
status=0

timed() {  # timed NAME COMMAND...: log in $OUT/logs/NAME.log, wall time and exit code in serving-wide-times.log
  local name=$1 start=$SECONDS code
  shift
  "$@" > "$OUT/logs/$name.log" 2>&1
  code=$?
  echo "$name exit $code wall $((SECONDS - start)) s" | tee -a "$OUT/logs/serving-wide-times.log"
  tail -n 20 "$OUT/logs/$name.log"
  return $code
}

for stage in "$@"; do
  case $stage in
    build)
      timed configure cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release || exit 1
      timed build cmake --build build-gpu -j "$(nproc)" --target graphbench || exit 1
      ;;
    export)
      timed serving-wide-export "${PYTHON:-python3}" scripts/export_model.py hf:mistral \
        --hf-config hidden_size=4096 --hf-config intermediate_size=14336 --hf-config num_hidden_layers=4 \
        --hf-config num_attention_heads=32 --hf-config num_key_value_heads=8 --hf-config vocab_size=32000 \
        --hf-config max_position_embeddings=4096 --decode --cache-as-state --dtype bfloat16 --batch 8 \
        --dynamic-batch 256 --format pt2 --max-seq 4096 --pos 2048 \
        -o models/serving-wide --suite models/serving-wide/serving-wide.json || status=1
      ls -l models/serving-wide >> "$OUT/logs/serving-wide-times.log" 2>&1
      ;;
    sweep)
      read -r -a serving_args <<< "${SERVING_ARGS:---max-time 3 --profile off}"
      part=${SERVING_PART:-1}
      rm -rf "$parts/part-$part"
      timed "serving-wide-part-$part" "$gb" run --config models/serving-wide/serving-wide.json --variants eager,graph \
        --sweep batch="${SERVING_BATCHES:-$vllm_sizes}" --repetitions 1 "${serving_args[@]}" \
        -o "$parts/part-$part" || status=1
      ;;
    merge)
      python3 scripts/suites.py merge-results "$parts"/part-*/results.json -o "$OUT/results/serving-wide/merged.json" || { status=1; continue; }
      timed serving-wide-report "$gb" report "$OUT/results/serving-wide/merged.json" -o "$OUT/results/serving-wide" || status=1
      cp models/serving-wide/serving-wide.json "$OUT/results/serving-wide/exported-suite.json" 2> /dev/null
      cp "$OUT/logs/serving-wide-times.log" "$OUT/results/serving-wide/times.log" 2> /dev/null
      grep -A12 "over batch: graph" "$OUT/results/serving-wide/results.md" | head -40
      ;;
    *)
      echo "serving-wide.sh: unknown stage $stage (build, export, sweep, merge)" >&2
      exit 2
      ;;
  esac
done
exit $status
