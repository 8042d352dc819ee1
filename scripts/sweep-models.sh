#!/usr/bin/env bash
# Exports the model files configs/sweeps.json sweeps over: ResNet-18 inference as one AOTInductor
# package whose batch is dynamic (models/resnet18-bmax256.pt2), and a GPT-2-small-class decoding step (one
# token per sequence, a static KV cache of 256 positions written at position 128, bfloat16) as an
# AOTInductor package per batch size (the cache's batch is part of the package, so each size is a
# file of its own: models/hf-gpt2-b{batch}-decode-m256-p128-bfloat16.pt2). Random weights,
# nothing downloaded. Run where PyTorch with transformers is installed:
#
#   scripts/sweep-models.sh [--dry-run] [OUTPUT_DIR]       (default: models)
#
# The cache is a constant of each package: a package stores it compressed, but loading one unpacks
# it whole (at 1024 positions, batch 256 would unpack 9.6 GB), so the sweep's cache is 256
# positions. JOBS exports run side by side (default 4; scripts/export-parallel.sh), one per package.
# Every export is attempted; the exit code is 1 when one failed (its sweep point then fails, the others run).
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
