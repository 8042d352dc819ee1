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
#                outputs (results/<GPU>/aa-default/ in the repository)
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
      DEVICE_OUT=$DEVICE_OUT python3 - "$runs_dir" "$dest" <<'PY' || status=1
import glob, itertools, json, os, sys
runs_dir, dest = sys.argv[1:]
runs = sorted(glob.glob(os.path.join(runs_dir, "run-*")), key=lambda p: int(p.rsplit("-", 1)[1]))
reports = {os.path.basename(r): json.load(open(os.path.join(r, "results.json"))) for r in runs}
codes = dict(line.split() for line in open(os.path.join(dest, "compare", "exit-codes.txt")))
def intervals(report, field):
    out = {}
    for r in report["records"]:
        if r.get("status") != "ok":
            continue
        key = (r["case"], r["variant"])
        if field == "speedup" and r["variant"] != "eager" and r.get("speedup_ci95"):
            out[key] = tuple(r["speedup_ci95"])
        elif field == "median":
            reps = r.get("repetitions") or {}
            ci = reps.get("median_ci95")
            if ci:
                out[key] = tuple(ci)
            elif r.get("rel_noise") is not None:
                m = r["median_us"]
                out[key] = (m * (1 - r["rel_noise"]), m * (1 + r["rel_noise"]))
    return out
lines = ["# Default runs of the ci suite: intervals and the plain gate", ""]
env = next(iter(reports.values()))["environment"] if reports else {}
lines.append(f"GPU {env.get('gpu_name')}, commit {env.get('git_commit')}, {len(reports)} runs "
             f"(`graphbench --workload ci --device cuda`), one with `--inject-slowdown graph=2` (slow).")
lines.append("")
for field in ("speedup", "median"):
    total = overlap = 0
    misses = []
    for a, b in itertools.combinations(reports, 2):
        ia, ib = intervals(reports[a], field), intervals(reports[b], field)
        for key in sorted(set(ia) & set(ib)):
            total += 1
            lo = max(ia[key][0], ib[key][0]); hi = min(ia[key][1], ib[key][1])
            if lo <= hi:
                overlap += 1
            else:
                misses.append(f"{a}/{b} {key[0]}/{key[1]} {ia[key]} {ib[key]}")
    share = f"{100.0 * overlap / total:.1f}%" if total else "n/a"
    lines.append(f"- 95% {field} intervals overlapping over pairs of runs: {overlap} of {total} ({share})")
    for m in misses:
        lines.append(f"  - apart: {m}")
pairs = {k: int(v) for k, v in codes.items() if not k.endswith("-vs-slow")}
slow = {k: int(v) for k, v in codes.items() if k.endswith("-vs-slow")}
lines.append(f"- plain `graphbench compare run-i run-j` (every ordered pair): exit 0 in "
             f"{sum(v == 0 for v in pairs.values())} of {len(pairs)}; others: "
             f"{', '.join(f'{k} exit {v}' for k, v in sorted(pairs.items()) if v != 0) or 'none'}")
lines.append(f"- `graphbench compare run-i slow`: exit 1 in {sum(v == 1 for v in slow.values())} of {len(slow)}; others: "
             f"{', '.join(f'{k} exit {v}' for k, v in sorted(slow.items()) if v != 1) or 'none'}")
for k in sorted(slow):
    text = open(os.path.join(dest, "compare", k + ".txt")).read()
    named = [l for l in text.splitlines() if l.startswith("REGRESSION:")]
    lines.append(f"  - {k}: {len(named)} rows named" + (f" ({named[0]} ...)" if named else ""))
times = os.path.join(dest, "times.log")
if os.path.exists(times):
    lines += ["", "Wall time of each run (this script's clock):", "", "```", open(times).read().rstrip(), "```"]
open(os.path.join(dest, "summary.md"), "w").write("\n".join(lines) + "\n")
open(os.path.join(os.environ["DEVICE_OUT"], "summary.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
ok = pairs and all(v == 0 for v in pairs.values()) and slow and all(v == 1 for v in slow.values())
sys.exit(0 if ok else 1)
PY
      ;;
    *)
      echo "aa-default.sh: unknown stage $stage (build, runs, slow, summary)" >&2
      exit 2
      ;;
  esac
done
exit $status
