#!/usr/bin/env bash
# The machine's reference, which the budgets of the README's two commands (docs/building.md) are ratios
# to: one file with <torch/torch.h> compiled as graphbench's are (no ccache), LibTorch loaded 10 times.
# Writes "compile_s C load_s L reference_s R" to BUILD_DIR/reference-time.txt.
#
# Usage: scripts/measure-reference.sh [BUILD_DIR]     (default build; its graphbench must exist)
# Exit: 0 measured, 2 no graphbench in BUILD_DIR or the compile failed.
set -euo pipefail
build_dir=${1:-build}
gb=$build_dir/graphbench
[[ -x $gb ]] || { echo "measure-reference.sh: $gb: missing (scripts/setup.sh builds it)" >&2; exit 2; }
now() { date +%s.%N; }
since() { awk -v s="$1" -v n="$(now)" 'BEGIN {printf "%.1f", n - s}'; }
tu=$(mktemp --suffix=.cpp)
trap 'rm -f "$tu" "$tu.o"' EXIT
printf '#include <torch/torch.h>\nint main() { return torch::ones({2}).sum().item<int>() == 2 ? 0 : 1; }\n' > "$tu"
start=$(now)
"${CXX:-c++}" -std=c++17 -O2 -isystem /usr/include/torch/csrc/api/include -c "$tu" -o "$tu.o" ||
  { echo "measure-reference.sh: compiling a file that includes <torch/torch.h> failed" >&2; exit 2; }
compile_s=$(since "$start")
start=$(now)
for _ in 1 2 3 4 5 6 7 8 9 10; do "$gb" --version > /dev/null; done
load_s=$(since "$start")
reference_s=$(awk -v c="$compile_s" -v l="$load_s" 'BEGIN {printf "%.1f", c + l}')
echo "compile_s $compile_s load_s $load_s reference_s $reference_s" > "$build_dir/reference-time.txt"
echo "reference: $reference_s s (one file with <torch/torch.h> compiled in $compile_s s, LibTorch loaded 10 times in $load_s s)"
