# shellcheck shell=bash
# What the export scripts share (scripts/decode-suite.sh, models-suite.sh, sweep-models.sh source it
# first, without arguments, so that it reads theirs): `here` (scripts/), `dry` (--dry-run when that
# is their first argument, which it takes off) and `out` (their next argument, default models).
# They run their exports with scripts/export-parallel.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dry=()
if [[ ${1:-} == --dry-run ]]; then
  dry=(--dry-run)
  shift
fi
out=${1:-models}
