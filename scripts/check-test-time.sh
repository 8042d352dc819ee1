#!/usr/bin/env bash
# Holds the README's test command, timed by .ci/run, to docs/building.md's budget (scripts/time-budget.sh).
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
