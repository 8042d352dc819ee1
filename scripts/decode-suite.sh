#!/usr/bin/env bash
# Exports the models of configs/decode.json (its description says which; random weights, nothing
# downloaded), where PyTorch with transformers is installed:
#
#   scripts/decode-suite.sh [--dry-run] [OUTPUT_DIR [SUITE_FILE]]    (default: models models/decode.json)
#
# With OUTPUT_DIR models and SUITE_FILE configs/decode.json it writes configs/decode.json as
# committed (a test checks). Every export is attempted; exit 1 when one failed (the suite holds the
# others). $PYTHON picks the interpreter; JOBS=N runs N exports at a time; MODELS=llama exports the
# Llama-class decoder alone, FORMATS=pt (or pt2) one format: a suite of those cases only.
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
after=(--suite-description "$description")  # after the first export's --suite, then --append
export_model() {
  next_part
  queue+=(::: "$@" --suite "$part" "${after[@]}" --dtype bfloat16 -o "$out" --suite-name decode \
    ${FORMATS:+--format "$FORMATS"} "${dry[@]}")
  after=(--append)
}
if [[ ${MODELS:-gpt2 llama} == llama ]]; then
  after=()
else
  export_model hf:gpt2 --batch 1,8,32,128 --decode --max-seq 1024 --pos 512
  export_model hf:gpt2 --batch 1 --seq 512
fi
export_model hf:llama "${llama[@]}" --batch 1,8,32,128 --decode --max-seq 1024 --pos 512
export_model hf:llama "${llama[@]}" --batch 1 --seq 512
EXPORT_JOBS=$jobs exec "$here/export-parallel.sh" "$suite" "${queue[@]}"
