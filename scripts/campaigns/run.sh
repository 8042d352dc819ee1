#!/usr/bin/env bash
# The measurement campaigns on the GPU machine, after scripts/gpu-check.sh build (in the same call of
# the device tool, or a later one on a machine that stayed warm): the stages given, in order, e.g.
#   scripts/gpu-check.sh build && scripts/campaigns/run.sh models-export decode-export models decode
# Each stage is a function stage_NAME of a file of this folder, whose header says what it runs, what it
# reads and where its results go (under $OUT, packed as scripts/gpu-check.sh packs them).
# Exit codes: 0 every stage passed, 1 one failed, 2 an unknown stage.
# shellcheck disable=SC2317 # the helpers below are called by the stage files
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/gpu-common.sh
source "$here/../gpu-common.sh"

# background NAME COMMAND...: `run NAME COMMAND...` in the background (an export that a timed stage
# waits for: wait_for NAME, or wait_all_exports); ${bg_pids[NAME]+set}: this job started it.
declare -A bg_pids=()
background() {
  run "$@" > /dev/null &
  bg_pids[$1]=$!
  echo "=== $1: started in the background (pid $!)" | tee -a "$OUT/logs/summary.log"
}
wait_for() {
  local pid=${bg_pids[$1]:-} start=$SECONDS code
  [[ -n $pid ]] || return 0
  wait "$pid"
  code=$?
  bg_pids[$1]=
  echo "=== $1: exit $code, waited $((SECONDS - start)) s" | tee -a "$OUT/logs/summary.log"
  tail -n 20 "$OUT/logs/$1.log"
  [[ $code -eq 0 ]] || status=1
}
wait_all_exports() { local name; for name in "${!bg_pids[@]}"; do wait_for "$name"; done; }

export_model() { run "$1" "$py" scripts/export_model.py "${@:2}" || status=1; }
# run_suite NAME SUITE [ARGS]: graphbench runs SUITE (ARGS, $MODEL_ARGS) into results/NAME.
run_suite() { run "$1" "$gb" run --config "$2" "${@:3}" "${model_args[@]}" -o "$OUT/results/$1" || status=1; }

# suite_with_python NAME SUITE DEST [EXPORTED]: graphbench runs SUITE ($MODEL_ARGS) into DEST (EXPORTED kept
# there), then Python's figures beside graphbench's ($PYTHON_BASELINE_ARGS): DEST/python-baseline.json.
suite_with_python() {
  local name=$1 suite=$2 dest=$3 beside=()
  run "$name" "$gb" run --config "$suite" "${model_args[@]}" -o "$dest" || status=1
  mkdir -p "$dest"
  [[ -z ${4:-} ]] || cp "$4" "$dest/exported-suite.json" 2>/dev/null
  [[ -f $dest/results.json ]] && beside=(--graphbench "$dest/results.json")
  run "$name-python" "$py" scripts/python_baseline.py --suite "$suite" "${beside[@]}" "${python_args[@]}" \
    -o "$dest/python-baseline.json" || status=1
}

# disk_watch LOG PATH...: the disk use of PATH... and /tmp every 10 s into LOG, until kill $watch_pid.
disk_watch() {
  local log=$1
  shift
  ( while sleep 10; do { date +%T; df -h "$@" | tail -n +2; du -sh /tmp 2> /dev/null; } >> "$log"; done ) &
  watch_pid=$!
}

for file in "$here"/*.sh; do
  # shellcheck disable=SC1090 # the stage files of this folder
  [[ $file == */run.sh ]] || source "$file"
done
for stage in "$@"; do
  if ! declare -F "stage_${stage//-/_}" > /dev/null; then
    echo "campaigns/run.sh: unknown stage $stage (scripts/campaigns/*.sh define them)" >&2
    exit 2
  fi
done
[[ -x $gb ]] || echo "campaigns/run.sh: warning: no $gb here: run scripts/gpu-check.sh build first" >&2
for stage in "$@"; do
  "stage_${stage//-/_}"
  pack "$stage"
done
exit $status
