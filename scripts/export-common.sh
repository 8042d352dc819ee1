# shellcheck shell=bash
# What scripts/decode-suite.sh, models-suite.sh and sweep-models.sh share (sourced first, reading their
# arguments): `here`, `dry` (a first --dry-run, taken off), `out` (the next, default models), and the
# queue of exports for scripts/export-parallel.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dry=()
[[ ${1:-} == --dry-run ]] && { dry=(--dry-run); shift; }
out=${1:-models}
jobs=${JOBS:-1}
[[ ${#dry[@]} -gt 0 ]] && jobs=1
queue=() n=0
# next_part: $part, the suite the next export adds to: $suite, or with JOBS > 1 a suite of its own
# (SUITE-part-N.json), joined into $suite at the end.
next_part() { part=$suite; [[ $jobs -gt 1 ]] && part=${suite%.json}-part-$((n++)).json; }
