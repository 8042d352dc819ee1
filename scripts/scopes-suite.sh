#!/usr/bin/env bash
# Exports the models of configs/scopes.json split into pieces (docs/models.md, "Splitting a model into
# pieces"; the suite's description says which) and writes the suite, each case swept over the scopes
# it compares. TorchScript, random weights, nothing downloaded. Run where PyTorch (with torchvision) is:
#
#   scripts/scopes-suite.sh [OUTPUT_DIR [SUITE_FILE]]    (default: models configs/scopes.json)
#
# Every export is attempted; exit 1 when one failed (the suite then holds the others). $PYTHON picks
# the interpreter, $SCOPES_MODELS the models (the case below), $SCOPES_LLAMA_BATCHES the decoder's
# batches. $SCOPES_FORMAT=pt2 compiles the inference pieces that can be captured with Inductor
# ($SCOPES_PIECES_PACKAGE=one: a model's in one package). $SCOPES_PARALLEL=N runs N exports at a
# time, each into OUTPUT_DIR/scopes-part-NAME.json, joined into SUITE_FILE at the end
# ($SCOPES_JOIN_ALL=1: with the parts earlier calls left there).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-models}
suite=${2:-configs/scopes.json}
description="Capture scopes side by side: the whole step in one graph (full), one graph per repeated block \
(layer), every piece between attention ops captured with attention eager (attention-out), forward and backward \
captured with the optimizer eager (fwd-bwd), and pieces around what cannot be captured (auto), beside eager: a \
Llama-class decoding step (6 layers, width 2048, grouped-query attention 16/4, static KV cache of 1024 positions \
written at 512, bfloat16) at batch 1, 8, 32 and 128; ResNet-50 inference by stage; a ResNet-18 training step by stage; a \
mixture-of-experts block whose routing has data-dependent shapes. Models split into TorchScript pieces by \
scripts/export_model.py --scope; random weights. The model files are not committed: make them with \
scripts/scopes-suite.sh (needs PyTorch and torchvision)."
format=${SCOPES_FORMAT:-pt}
llama_batches=${SCOPES_LLAMA_BATCHES:-1,8,32,128}
queue=()
export_model() {  # PART ARGS...: one export into the suite $out/scopes-part-PART.json
  local part=$1 fmt=$format packaging=()
  shift
  [[ " $* " == *" --mode train "* ]] && fmt=pt  # a training step's pieces are TorchScript
  [[ $fmt == pt2 && -n ${SCOPES_PIECES_PACKAGE:-} ]] && packaging=(--pieces-package "$SCOPES_PIECES_PACKAGE")
  queue+=(::: "$@" --format "$fmt" "${packaging[@]}" -o "$out" --suite "$out/scopes-part-$part.json"
          --suite-name scopes --suite-description "$description")
}
for model in ${SCOPES_MODELS:-llama moe resnet18 resnet50}; do
  case $model in
    llama) for b in ${llama_batches//,/ }; do
             export_model "llama-b$b" py:examples/llama_decode.py:make_model --batch "$b" --scope layer,attention-out
           done ;;
    moe) export_model moe py:examples/moe_block.py:make_model --scope auto ;;
    resnet18) export_model resnet18 torchvision:resnet18 --batch 32 --mode train --scope layer ;;
    resnet50) export_model resnet50-b1 torchvision:resnet50 --batch 1 --scope layer
              export_model resnet50-b32 torchvision:resnet50 --batch 32 --scope layer ;;
    conv_attention) export_model conv_attention py:examples/conv_attention.py:make_model --batch 8 --scope layer,attention-out ;;
    padded) export_model padded py:examples/padded_tokens.py:make_model --batch 8 --scope auto ;;
    gated) export_model gated py:examples/gated_layers.py:make_model --batch 8 --scope auto ;;
    *) echo "scopes-suite.sh: unknown model \"$model\" in SCOPES_MODELS (llama, moe, resnet18, resnet50, conv_attention, padded, gated)" >&2
       exit 2 ;;
  esac
done
# One suite of the parts, in the order above (a part whose export failed is left out).
status=0
EXPORT_JOBS=${SCOPES_PARALLEL:-1} "$here/export-parallel.sh" "$suite" --suite-name scopes "${queue[@]}" || status=1
if [[ -n ${SCOPES_JOIN_ALL:-} ]]; then
  "${PYTHON:-python3}" "$here/suites.py" join "$suite" "$out"/scopes-part-*.json --suite-name scopes || status=1
fi
"${PYTHON:-python3}" "$here/suites.py" sweep-scopes "$suite" || status=1
exit $status
