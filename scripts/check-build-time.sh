#!/usr/bin/env bash
# Holds the last build (BUILD_DIR/build-time.txt, by scripts/setup.sh) to docs/building.md's budget
# (scripts/time-budget.sh); the CPU seconds printed beside, since they move less with the load.
#
# Usage: scripts/check-build-time.sh [BUILD_DIR] [BUILDING_MD]     (default build, docs/building.md)
# Exit: 0 within the budget, 3 over it, 2 a file missing or without its figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-build}
doc=${2:-$root/docs/building.md}
times_file=$build_dir/build-time.txt
[[ -r $times_file ]] || { echo "check-build-time.sh: $times_file: missing (scripts/setup.sh writes it)" >&2; exit 2; }
read -r _ wall _ cpu _ cores < "$times_file"
[[ -n ${wall:-} && -n ${cpu:-} ]] || { echo "check-build-time.sh: $times_file: expected \"wall_s W cpu_s C cores N\"" >&2; exit 2; }
# shellcheck source=scripts/time-budget.sh
source "$root/scripts/time-budget.sh"
hold_to_budget check-build-time.sh "$wall" "$build_dir" "$doc" "the build of graphbench takes" \
  "BUILD TIME: graphbench took $wall s to build ($cpu s of CPU on $cores cores)" \
  "scripts/measure-build.sh prints compiler time by target" \
  "build time: graphbench built in $wall s ($cpu s of CPU on $cores cores)"
