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
python3 - build/.ninja_log <<'PY'
import collections, sys
by_target = collections.defaultdict(float)
total = 0.0
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    start, end, _, out, _ = line.split("\t")
    seconds = (int(end) - int(start)) / 1000
    total += seconds
    by_target[out.split("CMakeFiles/")[1].split("/")[0] if "CMakeFiles/" in out else "links and test lists"] += seconds
print(f"compiler and linker time, all entries: {total:.0f} s")
for target, seconds in sorted(by_target.items(), key=lambda kv: -kv[1]):
    print(f"  {seconds:7.1f} s  {target}")
PY
