#!/usr/bin/env bash
# Exports the models of configs/models.json (random weights, nothing downloaded), where PyTorch with
# torchvision and transformers is installed:
#
#   scripts/models-suite.sh [--dry-run] [OUTPUT_DIR [SUITE_FILE]]    (default: models models/suite.json)
#
# With OUTPUT_DIR models and SUITE_FILE configs/models.json it writes configs/models.json as committed
# (a test checks). Every export is attempted; exit 1 when one failed (the suite holds the others).
# $PYTHON picks the interpreter; JOBS=N runs N exports at a time (scripts/export-parallel.sh).
# shellcheck source=scripts/export-common.sh
source "$(dirname "$0")/export-common.sh"
suite=${2:-$out/suite.json}
export_model() { next_part; queue+=(::: "$@" -o "$out" --suite "$part" "${dry[@]}"); }
export_model torchvision:resnet50 --batch 1,32 --suite-description "Your own model, eager and captured: \
ResNet-50 (batch 1 and 32), ViT-B/16 and a BERT-base encoder (sequence 128) as TorchScript and AOTInductor \
packages, inference; whole training steps of ResNet-18 (batch 32, SGD) and of MobileNetV3-Small (batch 32, Adam, \
dropout) as TorchScript and as one AOTInductor package each. Random weights. The model \
files are not committed: make them with scripts/models-suite.sh (needs PyTorch, torchvision, transformers)."
export_model torchvision:vit_b_16 --batch 1 --append
export_model hf:bert --batch 1 --seq 128 --append
resnet18_train=(torchvision:resnet18 --batch 32 --mode train --loss cross_entropy --optimizer sgd --lr 0.01 --momentum 0.9)
export_model "${resnet18_train[@]}" --format pt --append
# The whole step as one package, its convolution weights kept channels-last (as torch.compile lays them out).
export_model "${resnet18_train[@]}" --format pt2 --channels-last --append
# A training step with dropout and Adam: its validation once judged the random stream, not the capture.
export_model torchvision:mobilenet_v3_small --batch 32 --mode train --format pt --optimizer adam --append
export_model torchvision:mobilenet_v3_small --batch 32 --mode train --format pt2 --channels-last --optimizer adam --append
EXPORT_JOBS=$jobs exec "$here/export-parallel.sh" "$suite" "${queue[@]}"
