#!/usr/bin/env bash
# Builds the tests into build/ (configured by scripts/setup.sh) and runs them all with ctest, as
# many at a time as there are cores ([cuda] tests skip without a GPU).
#
# Usage: scripts/test.sh [extra ctest arguments, e.g. -R compare]
# Environment: BUILD_DIR (default build), JOBS (default: all cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  echo "test: $build_dir is not configured; run scripts/setup.sh first" >&2
  exit 2
fi
jobs=${JOBS:-$(nproc)}
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@"
