#!/usr/bin/env bash
# Times the README's two commands from a fresh clone, then rebuilds after touching single files:
# the figures of docs/building.md. Packages must be installed already (scripts/setup.sh once), and
# the machine otherwise idle. Prints one line per measurement and ninja's per-target summary.
#
# Usage: scripts/measure-build.sh [REVISION]      (default HEAD; clones into a temporary folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
work=$(mktemp -d "${TMPDIR:-/tmp}/graphbench-build-XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/src"
cd "$work/src"
git checkout -q "$rev"
echo "revision $(git log --oneline -1 | cut -c1-72), $(nproc) cores"

seconds() { local start=$1; echo "$(date +%s.%N) - $start" | bc; }
timed() {  # timed LABEL COMMAND...
  local label=$1
  shift
  local start
  start=$(date +%s.%N)
  "$@" > "$work/$label.log" 2>&1 || { echo "$label: failed (log: kept in $work/$label.log)"; trap - EXIT; exit 1; }
  printf '%-44s %7.1f s\n' "$label" "$(seconds "$start")"
}

timed "first command (setup, build, GELU run)" sh -c 'scripts/setup.sh --no-install && build/graphbench --workload gelu'
timed "test command (build tests, ctest)" scripts/test.sh
for file in src/graphbench/engine/exec/graph_executor.cpp bench/gelu.cpp src/graphbench/core/report/csv_writer.cpp; do
  touch "$file"
  timed "rebuild graphbench after touching $(basename "$file")" cmake --build build --target graphbench
done
touch tests/core/compare_test.cpp
timed "rebuild all after touching compare_test.cpp" cmake --build build

# Compiler time by target, from ninja's log (every entry of the runs above).
awk -F'\t' '!/^#/ { s = ($2 - $1) / 1000; total += s; k = "links and test lists"
                    if (split($4, p, "CMakeFiles/") > 1) { split(p[2], q, "/"); k = q[1] }; by[k] += s }
  END { printf "compiler and linker time, all entries: %.0f s\n", total; fflush()
        for (k in by) printf "  %7.1f s  %s\n", by[k], k | "sort -rn" }' build/.ninja_log
