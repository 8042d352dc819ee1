#!/usr/bin/env bash
# Holds the build of graphbench to the figure in docs/building.md: warns loudly (and exits 3)
# when the last build (scripts/setup.sh writes BUILD_DIR/build-time.txt) took more than 120% of
# it. Build times move with the machine and its load, so .ci/run prints the warning and goes on
# rather than failing; the CPU seconds are printed beside, since they move less with the load.
#
# Usage: scripts/check-build-time.sh [BUILD_DIR] [BUILDING_MD]     (default build, docs/building.md)
# Exit: 0 within the budget, 3 over it, 2 a file missing or without its figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-build}
doc=${2:-$root/docs/building.md}
times_file=$build_dir/build-time.txt
[[ -r $times_file ]] || { echo "check-build-time.sh: $times_file: missing (scripts/setup.sh writes it)" >&2; exit 2; }
budget=$(sed -n 's/.*Budget: the build of graphbench takes \([0-9.]*\) s.*/\1/p' "$doc" | head -1)
[[ -n $budget ]] || { echo "check-build-time.sh: $doc: no line \"Budget: the build of graphbench takes N s\"" >&2; exit 2; }
read -r _ wall _ cpu _ cores < "$times_file"
[[ -n ${wall:-} && -n ${cpu:-} ]] || { echo "check-build-time.sh: $times_file: expected \"wall_s W cpu_s C cores N\"" >&2; exit 2; }
limit=$(awk -v b="$budget" 'BEGIN {printf "%.1f", b * 1.2}')
if awk -v w="$wall" -v l="$limit" 'BEGIN {exit !(w > l)}'; then
  {
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!!! BUILD TIME: graphbench took $wall s to build ($cpu s of CPU on $cores cores),"
    echo "!!! more than 120% of the $budget s in docs/building.md (limit $limit s)."
    echo "!!! Find what grew (scripts/measure-build.sh prints compiler time by target) or, if the"
    echo "!!! growth is worth it, measure again and update docs/building.md's budget."
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  } >&2
  exit 3
fi
echo "build time: graphbench built in $wall s ($cpu s of CPU on $cores cores), within 120% of the $budget s budget"
