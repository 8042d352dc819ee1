#!/usr/bin/env bash
# Exports the model files configs/sweeps.json sweeps over (random weights, nothing downloaded), where
# PyTorch with transformers is installed: ResNet-18 as one package of dynamic batch, and a GPT-2-small
# decoding step as a package per batch size (the cache's batch is part of the package). The cache, a
# constant that loading a package unpacks whole, has 256 positions (at 1024, batch 256 unpacks 9.6 GB).
#
#   scripts/sweep-models.sh [--dry-run] [OUTPUT_DIR]       (default: models)
#
# JOBS exports run side by side (default 4). Every export is attempted; exit 1 when one failed (its
# sweep point then fails, the others run).
# shellcheck source=scripts/export-common.sh
source "$(dirname "$0")/export-common.sh"
scratch=$(mktemp -d)  # the suites the exports write (configs/sweeps.json is the sweep's suite)
trap 'rm -rf "$scratch"' EXIT
common=(--format pt2 -o "$out" --suite-name sweeps "${dry[@]}")
# ResNet-18 inference: one package for every batch size up to 256 (a dynamic batch dimension).
queue=(::: torchvision:resnet18 --batch 8 --dynamic-batch 256 "${common[@]}" --suite "$scratch/resnet18.json")
for b in 1 2 4 8 16 32 64 128 256; do
  queue+=(::: hf:gpt2 --batch "$b" --decode --max-seq 256 --pos 128 --dtype bfloat16 "${common[@]}" --suite "$scratch/gpt2-b$b.json")
done
EXPORT_JOBS=${JOBS:-4} "$here/export-parallel.sh" "${queue[@]}"
