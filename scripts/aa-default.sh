#!/usr/bin/env bash
# Issue 50's must-show on the GPU machine: default runs of the ci suite, as a user runs them
# (`graphbench --workload ci --device cuda`, no other flag), whose intervals must hold from run to
# run and whose plain `graphbench compare` must pass unchanged code and catch a doubled graph step.
#
#   scripts/aa-default.sh STAGE...
#     build      configure and build the graphbench binary into build-gpu/ (gpu-check.sh's build,
#                the binary alone)
#     runs       default runs into build-gpu/aa-default/run-K (K after the last one there: the runs
#                of several calls add up while the machine stays warm) until $AA_RUNS (default 6)
#                exist, or until the call's time ($AA_LIMIT_S, default 540 s from the script's start)
#                would not hold another ($AA_RUN_S, default 75 s, the longest run seen so far)
#     slow       one run with --inject-slowdown graph=2 into build-gpu/aa-default/slow
#     summary    graphbench compare on every ordered pair of runs (each must exit 0) and slow
#                against every run (each must exit 1 naming rows); the 95% speedup and median
#                intervals' overlap over the pairs of runs; each run's wall time. Written to
#                $OUT/results/aa-default/summary.md with the runs' results.json and the compare
#                outputs (results/<GPU>/aa-default/ in the repository); scripts/aa_summary.py
#                writes the summary
# Everything is written under $AA_WORK (default build-gpu/aa-out, kept while the machine stays
# warm); each call ends by copying $OUT/aa-default.tgz (results and logs, packed: the device tool
# returns few files) and, after summary, $OUT/summary.md.
#
# One call of the device tool (600 s at most): build runs, then a second call: runs slow summary.
# Needs the offline kit in .device-kit/ as scripts/gpu-check.sh does.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
DEVICE_OUT=${OUT:-$root/gpu-out}
OUT=${AA_WORK:-$root/build-gpu/aa-out}
mkdir -p "$OUT/logs" "$OUT/results/aa-default" "$DEVICE_OUT"
pack() { tar czf "$DEVICE_OUT/aa-default.tgz" -C "$OUT" results logs; }
trap pack EXIT
[[ -f .device-kit/device-env.sh ]] && source .device-kit/device-env.sh
export GRAPHBENCH_GIT_COMMIT=${GRAPHBENCH_GIT_COMMIT:-unknown}
gb=${AA_GB:-build-gpu/graphbench}
runs_dir=${AA_DIR:-build-gpu/aa-default}
limit_s=${AA_LIMIT_S:-540}
run_s=${AA_RUN_S:-75}
status=0

timed() {  # timed NAME COMMAND...: log in $OUT/logs/NAME.log, wall time and exit code in summary.log
  local name=$1 start=$SECONDS code
  shift
  "$@" > "$OUT/logs/$name.log" 2>&1
  code=$?
  echo "$name exit $code wall $((SECONDS - start)) s" | tee -a "$OUT/logs/aa-default-times.log"
  return $code
}

for stage in "$@"; do
  case $stage in
    build)
      nvidia-smi > "$OUT/logs/nvidia-smi.log" 2>&1
      timed configure cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release || exit 1
      timed build cmake --build build-gpu -j "$(nproc)" --target graphbench || { tail -40 "$OUT/logs/build.log"; exit 1; }
      ;;
    runs)
      mkdir -p "$runs_dir"
      while :; do
        count=$(find "$runs_dir" -maxdepth 1 -name 'run-*' -type d | wc -l)
        (( count >= ${AA_RUNS:-6} )) && break
        if (( SECONDS + run_s > limit_s )); then
          echo "runs: $count of ${AA_RUNS:-6} so far; another would not fit this call (${SECONDS} s spent)" | tee -a "$OUT/logs/aa-default-times.log"
          break
        fi
        k=$((count + 1))
        timed "run-$k" "$gb" --workload ci --device cuda -o "$runs_dir/run-$k" || status=1
      done
      ;;
    slow)
      timed slow "$gb" --workload ci --device cuda --inject-slowdown graph=2 -o "$runs_dir/slow" || status=1
      ;;
    summary)
      dest=$OUT/results/aa-default
      for d in "$runs_dir"/run-* "$runs_dir"/slow; do
        [[ -f $d/results.json ]] || continue
        mkdir -p "$dest/$(basename "$d")"
        cp "$d"/results.* "$dest/$(basename "$d")/"
      done
      cp "$OUT/logs/aa-default-times.log" "$dest/times.log" 2> /dev/null
      mkdir -p "$dest/compare"
      : > "$dest/compare/exit-codes.txt"
      for a in "$runs_dir"/run-*; do
        for b in "$runs_dir"/run-* "$runs_dir"/slow; do
          [[ $a == "$b" ]] && continue
          name="$(basename "$a")-vs-$(basename "$b")"
          "$gb" compare "$a" "$b" > "$dest/compare/$name.txt" 2>&1
          echo "$name $?" >> "$dest/compare/exit-codes.txt"
        done
      done
      python3 scripts/aa_summary.py "$runs_dir" "$dest" --copy-to "$DEVICE_OUT" || status=1
      ;;
    *)
      echo "aa-default.sh: unknown stage $stage (build, runs, slow, summary)" >&2
      exit 2
      ;;
  esac
done
exit $status
