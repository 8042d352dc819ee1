#!/usr/bin/env bash
# Exports the models of configs/scopes.json, capture scopes side by side (docs/models.md, "Splitting
# a model into pieces"), and writes the suite, each case swept over the scopes it compares:
#   - a Llama-class decoding step (examples/llama_decode.py: 6 layers, width 2048, grouped-query
#     attention 16/4, a static KV cache of 1024 positions written at 512, bfloat16) at batch 1, 8,
#     32 and 128, split at layer and attention-out boundaries: full, attention-out, layer and
#     layer:pool-each (the same graphs, a memory pool each)
#   - torchvision's ResNet-50, inference at batch 1 and 32, split by stage: full, layer
#   - torchvision's ResNet-18, a training step at batch 32 split by stage (each piece traced in train
#     mode, its parameters the step's to update): full, fwd-bwd (forward and backward captured, the
#     optimizer eager, as make_graphed_callables does) and layer (a graph per stage; the stem, the
#     head, and the loss with backward captured too, the optimizer eager)
#   - a mixture-of-experts block whose routing has data-dependent shapes (examples/moe_block.py,
#     batch 4), which cannot be captured whole, split around them: full, auto
# TorchScript, random weights, nothing downloaded. Run where PyTorch (with torchvision) is:
#
#   scripts/scopes-suite.sh [OUTPUT_DIR [SUITE_FILE]]    (default: models configs/scopes.json)
#
# Every export is attempted; the exit code is 1 when one failed (the suite then holds the others).
# $PYTHON picks the interpreter; $SCOPES_MODELS the models (default "llama moe resnet18 resnet50";
# also conv_attention: examples/conv_attention.py split at layer and attention-out boundaries) and
# $SCOPES_LLAMA_BATCHES the decoding step's batch sizes (default 1,8,32,128), for a shorter run.
# Then: build/graphbench run --config configs/scopes.json, and scripts/python_baseline.py --suite
# configs/scopes.json for Python's figures on the same pieces.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-models}
suite=${2:-configs/scopes.json}
py=${PYTHON:-python3}
status=0
description="Capture scopes side by side: the whole step in one graph (full), one graph per repeated block \
(layer), every piece between attention ops captured with attention eager (attention-out), forward and backward \
captured with the optimizer eager (fwd-bwd), and pieces around what cannot be captured (auto), beside eager: a \
Llama-class decoding step (6 layers, width 2048, grouped-query attention 16/4, static KV cache of 1024 positions \
written at 512, bfloat16) at batch 1, 8, 32 and 128; ResNet-50 inference by stage; a ResNet-18 training step by stage; a \
mixture-of-experts block whose routing has data-dependent shapes. Models split into TorchScript pieces by \
scripts/export_model.py --scope; random weights. The model files are not committed: make them with \
scripts/scopes-suite.sh (needs PyTorch and torchvision)."
append=()
export_model() {  # ARGS...: the first writes the suite afresh, the others add to it
  "$py" "$here/export_model.py" "$@" --format pt -o "$out" --suite "$suite" --suite-name scopes \
    "${append[@]}" --suite-description "$description" || status=1
  append=(--append)
}
for model in ${SCOPES_MODELS:-llama moe resnet18 resnet50}; do
  case $model in
    llama) export_model py:examples/llama_decode.py:make_model --batch "${SCOPES_LLAMA_BATCHES:-1,8,32,128}" \
             --scope layer,attention-out ;;
    moe) export_model py:examples/moe_block.py:make_model --scope auto ;;
    resnet18) export_model torchvision:resnet18 --batch 32 --mode train --scope layer ;;
    resnet50) export_model torchvision:resnet50 --batch 1,32 --scope layer ;;
    conv_attention) export_model py:examples/conv_attention.py:make_model --batch 8 --scope layer,attention-out ;;
    *) echo "scopes-suite.sh: unknown model \"$model\" in SCOPES_MODELS (llama, moe, resnet18, resnet50, conv_attention)" >&2
       exit 2 ;;
  esac
done
# Each case swept over the scopes it compares (the eager variant beside them).
"$py" "$here/suites.py" sweep-scopes "$suite" || status=1
exit $status
