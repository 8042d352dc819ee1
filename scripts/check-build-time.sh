#!/usr/bin/env bash
# Holds the build of graphbench to the ratio in docs/building.md: warns loudly (and exits 3)
# when the last build (scripts/setup.sh writes BUILD_DIR/build-time.txt) took more than 120% of
# it, as a ratio to the reference measured in the same run (BUILD_DIR/reference-time.txt, from
# scripts/measure-reference.sh). .ci/run prints the warning and goes on rather than failing; the
# CPU seconds are printed beside, since they move less with the load.
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
