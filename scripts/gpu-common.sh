# shellcheck shell=bash
# What scripts/gpu-check.sh and scripts/campaigns/run.sh share (sourced by both, from the checkout's
# root): the offline kit's headers, $OUT for logs and result files, and the helpers below.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT/logs" "$OUT/results"
# shellcheck disable=SC1091 # carried to the GPU machine, not part of the repository
[[ -f .device-kit/device-env.sh ]] && source .device-kit/device-env.sh
export GRAPHBENCH_GIT_COMMIT=${GRAPHBENCH_GIT_COMMIT:-unknown}
# AOTInductor's compile cache on the checkout's disk: in /tmp it filled the space the results needed.
export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-$root/.inductor-cache}
df -h /tmp "$root" > "$OUT/logs/disk-start.log" 2>&1
gb=build-gpu/graphbench
py=${PYTHON:-python3}
status=0
# Sampling of the model suites (long AOTInductor cases fit a call of the device tool).
read -r -a model_args <<< "${MODEL_ARGS:-}"
read -r -a python_args <<< "${PYTHON_BASELINE_ARGS:-}"

run() {  # run NAME COMMAND...: logs to $OUT/logs/NAME.log, records the exit code (and the wall time in $times_log, if set)
  local name=$1 start=$SECONDS code
  shift
  echo "=== $name: $*" | tee -a "$OUT/logs/summary.log"
  "$@" > "$OUT/logs/$name.log" 2>&1
  code=$?
  echo "=== $name: exit $code after $((SECONDS - start)) s" | tee -a "$OUT/logs/summary.log"
  [[ -z ${times_log:-} ]] || echo "$name exit $code wall $((SECONDS - start)) s" >> "$times_log"
  tail -n 40 "$OUT/logs/$name.log"
  return $code
}
timed() { times_log=$1 run "${@:2}"; }  # timed LOG NAME COMMAND...

# pack STAGE: after every stage, so that a call cut short by its time limit still returns its logs.
pack() {
  { echo "after $1:"; df -h /tmp "$root"; } >> "$OUT/logs/disk.log" 2>&1
  tar czf "$OUT/gpu-results.tgz" -C "$OUT" logs results $([[ -d $OUT/tutorial ]] && echo tutorial)
}
