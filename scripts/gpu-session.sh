#!/usr/bin/env bash
# Runs scripts/gpu-check.sh in the background on the GPU machine, so that one job can outlast a
# single call of the device tool (each call is limited in time; the machine stays while calls keep
# coming). Logs and results accumulate under $GPU_SESSION_DIR (default .gpu-session/ in the
# checkout: on the machine's disk, not in /tmp, which AOTInductor's compiles can fill).
#
#   scripts/gpu-session.sh start STAGE...   start gpu-check.sh STAGE... in its own session
#   scripts/gpu-session.sh wait SECONDS     wait until the job ends or SECONDS pass, then copy the
#                                           packed logs and results to $OUT (the device tool's folder)
#   scripts/gpu-session.sh status           the job's summary so far
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${GPU_SESSION_DIR:-$root/.gpu-session}
cmd=${1:-}
shift || true
case $cmd in
  start)
    rm -rf "$dir" && mkdir -p "$dir"
    OUT="$dir" setsid nohup "$root/scripts/gpu-check.sh" "$@" > "$dir/job.log" 2>&1 < /dev/null &
    echo $! > "$dir/job.pid"
    echo "gpu-session: started gpu-check.sh $* (pid $(cat "$dir/job.pid")), output in $dir"
    ;;
  wait)
    limit=${1:-540}
    start=$SECONDS
    pid=$(cat "$dir/job.pid")
    while kill -0 "$pid" 2>/dev/null && (( SECONDS - start < limit )); do sleep 5; done
    if kill -0 "$pid" 2>/dev/null; then echo "gpu-session: still running after $limit s"; else echo "gpu-session: job finished"; fi
    [[ -f "$dir/gpu-results.tgz" ]] && cp "$dir/gpu-results.tgz" "${OUT:?}/"
    cp "$dir/job.log" "$OUT/job.log" 2>/dev/null
    tail -n 60 "$dir/job.log"
    ;;
  status)
    cat "$dir/logs/summary.log" 2>/dev/null
    ;;
  *)
    echo "usage: gpu-session.sh start STAGE... | wait SECONDS | status" >&2
    exit 2
    ;;
esac
