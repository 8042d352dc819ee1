#!/usr/bin/env bash
# Holds the README's test command to the ratio in docs/building.md: warns loudly (and exits 3)
# when it took more than 120% of it, as a ratio to the reference in BUILD_DIR/reference-time.txt
# (scripts/measure-reference.sh, the same run). .ci/run times the command and passes its seconds;
# like the build's budget (scripts/check-build-time.sh), a warning, not a failure.
#
# Usage: scripts/check-test-time.sh SECONDS [BUILD_DIR] [BUILDING_MD]   (default build, docs/building.md)
# Exit: 0 within the budget, 3 over it, 2 SECONDS not a number or the budget line missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-}
build_dir=${2:-build}
doc=${3:-$root/docs/building.md}
[[ $seconds =~ ^[0-9]+([.][0-9]+)?$ ]] ||
  { echo "check-test-time.sh: expected the test command's seconds as the first argument, got \"$seconds\"" >&2; exit 2; }
# shellcheck source=scripts/time-budget.sh
source "$root/scripts/time-budget.sh"
hold_to_budget check-test-time.sh "$seconds" "$build_dir" "$doc" "the test command takes" \
  "TEST TIME: the test command (building the tests, then ctest) took $seconds s on $(nproc) cores" \
  "ctest prints each test's time; ninja's log each target's" \
  "test time: the test command took $seconds s"
