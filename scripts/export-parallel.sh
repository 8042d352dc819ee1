#!/usr/bin/env bash
# Runs exports side by side and joins the suites they wrote: the one way the suite scripts and
# campaigns export several models (docs/models.md).
#
#   scripts/export-parallel.sh [--logs DIR] [SUITE [JOIN OPTION...]] ::: ARGS... [::: ARGS...]...
#
# Each job is `$PYTHON scripts/export_model.py ARGS...` into the suite its --suite PART names (afresh;
# after the job before it where that names the same PART), its log PART.log (in DIR with --logs);
# $EXPORT_JOBS at a time (default nproc). A failed job is named with its log, the others go on.
# Then SUITE (removed first) joins the suites written (scripts/suites.py join SUITE PART... OPTION...).
# Exit codes: 0 every job and the join done, 1 one failed, 2 bad arguments.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=
[[ ${1:-} == --logs ]] && { logs=$2; shift 2; }
join=()
while [[ $# -gt 0 && $1 != ::: ]]; do join+=("$1"); shift; done
queue=() parts=() unique=()  # each job's arguments (one quoted string each), its suite, the suites
while [[ ${1:-} == ::: ]]; do
  shift
  args=()
  while [[ $# -gt 0 && $1 != ::: ]]; do args+=("$1"); shift; done
  part=
  for ((i = 0; i + 1 < ${#args[@]}; ++i)); do [[ ${args[i]} == --suite ]] && part=${args[i + 1]}; done
  [[ -n $part ]] || { echo "export-parallel.sh: a job without --suite: ${args[*]}" >&2; exit 2; }
  [[ ${parts[*]: -1} == "$part" ]] || unique+=("$part")
  queue+=("$(printf '%q ' "${args[@]}")") parts+=("$part")
done
[[ $# -eq 0 && ${#queue[@]} -gt 0 ]] ||
  { echo "usage: export-parallel.sh [--logs DIR] [SUITE [JOIN OPTION...]] ::: ARGS... [::: ARGS...]..." >&2; exit 2; }
n=${EXPORT_JOBS:-$(nproc)}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "export-parallel.sh: EXPORT_JOBS=$n: expected a whole number of at least 1" >&2; exit 2; }
log_of() { local name=${1##*/}; echo "${logs:-$(dirname "$1")}/${name%.json}.log"; }
codes=$(mktemp -d)
trap 'rm -rf "$codes"' EXIT
rm -f "${join[0]:-}"  # what it held before: it holds what this call exported, or is absent
for part in "${unique[@]}"; do mkdir -p "$(dirname "$(log_of "$part")")"; rm -f "$part" "$(log_of "$part")"; done
for i in "${!queue[@]}"; do
  [[ $i -gt 0 && ${parts[i]} == "${parts[i - 1]}" ]] && wait  # it appends to the suite before it
  while [[ $(jobs -rp | wc -l) -ge $n ]]; do wait -n; done
  eval "args=(${queue[i]})"
  ("${PYTHON:-python3}" "$here/export_model.py" "${args[@]}" 2>&1 | tee -a "$(log_of "${parts[i]}")" >&2
   echo "${PIPESTATUS[0]}" > "$codes/$i") &
done
wait
status=0
for i in "${!queue[@]}"; do
  code=$(cat "$codes/$i" 2> /dev/null || echo killed)
  [[ $code == 0 ]] && continue
  echo "export-parallel.sh: failed (exit $code, log $(log_of "${parts[i]}")): export_model.py ${queue[i]}" >&2
  status=1
done
if [[ ${#join[@]} -gt 0 ]]; then
  "${PYTHON:-python3}" "$here/suites.py" join "${join[0]}" "${unique[@]}" "${join[@]:1}" || status=1
fi
exit $status
