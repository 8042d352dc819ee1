#!/usr/bin/env bash
# Exports the models of configs/decode.json: LLM decoding steps (one token per sequence, a static
# KV cache of 1024 positions written at position 512) at batch 1, 8, 32 and 128, and a prefill of
# 512 tokens, of a GPT-2-small-class and a Llama-class decoder (grouped-query attention, RMSNorm,
# rotary embeddings), in bfloat16, as TorchScript and AOTInductor packages. Random weights, nothing
# downloaded. Run where PyTorch with transformers is installed:
#
#   scripts/decode-suite.sh [--dry-run] [OUTPUT_DIR [SUITE_FILE]]    (default: models models/decode.json)
#
# configs/decode.json is what these commands write with OUTPUT_DIR models and SUITE_FILE
# configs/decode.json (a test checks that they agree). Every export is attempted; the exit code is
# 1 when one failed (the suite file then holds the others). $PYTHON picks the interpreter; with
# JOBS=2 the two models export side by side (each into a suite file of its own, merged at the end).
# MODELS=llama exports the Llama-class decoder alone, FORMATS=pt (or pt2) one format: a suite of
# those cases only.
# shellcheck source=scripts/export-common.sh
source "$(dirname "$0")/export-common.sh"
suite=${2:-$out/decode.json}
description="LLM decoding steps, eager and captured: one token per sequence against a static KV cache of 1024 \
positions written at position 512 (what serving engines capture per batch size), batch 1, 8, 32 and 128, and a \
prefill of 512 tokens, of a GPT-2-small-class decoder (12 layers, width 768) and a Llama-class one (6 layers, width \
2048, grouped-query attention 16/4, RMSNorm, rotary), bfloat16, TorchScript and AOTInductor. Random weights. The \
model files are not committed: make them with scripts/decode-suite.sh (needs PyTorch and transformers)."
llama=(--hf-config hidden_size=2048 --hf-config intermediate_size=5632 --hf-config num_hidden_layers=6
       --hf-config num_attention_heads=16 --hf-config num_key_value_heads=4 --hf-config vocab_size=32000
       --hf-config max_position_embeddings=2048)
export_model() {
  export_py "$@" --dtype bfloat16 -o "$out" --suite-name decode \
    ${FORMATS:+--format "$FORMATS"} "${dry[@]}"
}
# Each returns 1 when an export failed, after trying all of them.
gpt2() {
  local code=0
  export_model hf:gpt2 --batch 1,8,32,128 --decode --max-seq 1024 --pos 512 --suite "$1" \
    --suite-description "$description" || code=1
  export_model hf:gpt2 --batch 1 --seq 512 --suite "$1" --append || code=1
  return $code
}
llama() {
  local code=0
  export_model hf:llama "${llama[@]}" --batch 1,8,32,128 --decode --max-seq 1024 --pos 512 --suite "$1" "${@:2}" || code=1
  export_model hf:llama "${llama[@]}" --batch 1 --seq 512 --suite "$1" --append || code=1
  return $code
}
if [[ ${MODELS:-gpt2 llama} == llama ]]; then
  llama "$suite" || status=1
elif [[ ${JOBS:-1} -ge 2 && ${#dry[@]} -eq 0 ]]; then
  part=$(mktemp -d)
  gpt2 "$suite" || status=1 &
  llama "$part/llama.json" || status=1
  wait $! || status=1
  # The Llama cases join the suite that the GPT-2 exports wrote (paths relative to the same folder).
  "${PYTHON:-python3}" "$here/suites.py" join "$suite" "$suite" "$part/llama.json" || status=1
  rm -rf "$part"
else
  gpt2 "$suite" || status=1
  llama "$suite" --append || status=1
fi
exit $status
