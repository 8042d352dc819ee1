#!/usr/bin/env bash
# Runs a command when at least N GPUs are visible; otherwise exits 77, which ctest shows as skipped
# (SKIP_RETURN_CODE 77).   with_gpus.sh N COMMAND [ARGS...]
set -u
needed=$1
shift
visible=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [[ ${visible:-0} -lt $needed ]]; then
  echo "with_gpus.sh: skipped: needs $needed GPUs, ${visible:-0} visible"
  exit 77
fi
exec "$@"
