#!/usr/bin/env bash
# Runs scripts/gpu-check.sh and the campaigns in the background on the GPU machine, so that a job can
# outlast a call of the device tool (docs/gpu-campaigns.md). Its state under $GPU_SESSION_DIR (default
# .gpu-session/: an ignored path, or the tool removes it at the next call and the job runs twice).
#
#   scripts/gpu-session.sh start STAGE...   the stages, gpu-check.sh's first, then the campaigns'
#   scripts/gpu-session.sh wait SECONDS     until the job ends or SECONDS pass; the packed results to $OUT
#   scripts/gpu-session.sh status           the job's summary so far
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${GPU_SESSION_DIR:-$root/.gpu-session}
cmd=${1:-}
shift || true
case $cmd in
  start)
    if [[ -f "$dir/job.pid" ]] && kill -0 "$(cat "$dir/job.pid")" 2>/dev/null; then
      echo "gpu-session: a job is running already (pid $(cat "$dir/job.pid")): wait for it" >&2
      exit 2
    fi
    checks=() campaigns=()
    for stage in "$@"; do
      if grep -q "^stage_${stage//-/_}()" "$root"/scripts/campaigns/*.sh; then campaigns+=("$stage"); else checks+=("$stage"); fi
    done
    rm -rf "$dir" && mkdir -p "$dir"
    OUT="$dir" setsid nohup "$root/scripts/gpu-session.sh" job "${checks[*]}" "${campaigns[*]}" > "$dir/job.log" 2>&1 < /dev/null &
    echo $! > "$dir/job.pid"
    echo "gpu-session: started ${checks[*]} ${campaigns[*]} (pid $(cat "$dir/job.pid")), output in $dir"
    ;;
  job)  # CHECK_STAGES CAMPAIGN_STAGES (each a space-separated list): what start runs
    read -r -a checks <<< "${1:-}"
    read -r -a campaigns <<< "${2:-}"
    status=0
    if ((${#checks[@]})); then "$root/scripts/gpu-check.sh" "${checks[@]}" || status=1; fi
    if ((${#campaigns[@]})); then "$root/scripts/campaigns/run.sh" "${campaigns[@]}" || status=1; fi
    exit $status
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
