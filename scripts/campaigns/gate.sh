# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): the gate's calibration and the measurement
# checks. Runs that add up over calls (the machine kept warm) go to build-gpu/NAME/run-K.
#   ci-runs   $CI_RUNS (default 4) more no-change runs of configs/ci.json, copied to results/ci-runs/
#   calibrate graphbench calibrate over them: results/ci-runs/gate-calibration.json (docs/ci.md)
#   aa-repetitions  $AA_RUNS (default 1) more, each merged from $REPETITIONS (default 3) processes
#   aa-overlap  calibrate --overlap-only over those: how often their 95% intervals overlap
#   l2        configs/gelu.json eager and graph with --l2 hot, then cold (results/l2-hot, -cold)
#   profile-off  the blog's GELU cases with --profile off: profiling does not slow later cases
#   mnist-host  the two MNIST runs with --data-on-host (the tutorial's way of feeding)
# Issue 50: default runs of the ci suite, whose intervals must hold from run to run and whose plain
# compare must pass unchanged code and catch a doubled graph step (results/NVIDIA-H200/aa-default):
#   aa-default-runs  runs into $AA_DIR (default build-gpu/aa-default) until $AA_RUNS (default 6)
#             exist or another ($AA_RUN_S, default 75 s) would not fit the call ($AA_LIMIT_S,
#             default 540 s from run.sh's start); exit codes and wall times in times.log there
#   aa-default-slow  one run with --inject-slowdown graph=2 ($AA_DIR/slow)
#   aa-default-summary  compare on every ordered pair of runs (must exit 0) and slow against each
#             (must exit 1), the intervals' overlap: results/aa-default (summary.md, also in $OUT)
# e.g. BUILD_TARGET=graphbench scripts/gpu-check.sh build && AA_LIMIT_S=420 scripts/campaigns/run.sh
# aa-default-runs in one call, then run.sh aa-default-runs aa-default-slow aa-default-summary.
# Issue 61: the gate judged both ways, with runs in which gelu-large does 10% and 25% more device
# work under the same name (configs/regress/), which must exit 1 against every unchanged run:
#   gate-default  $GATE_RUNS (default 6) runs, then regress-10 and -25; results, times.log, every
#             plain compare and summary.md (scripts/gate_summary.py) in results/gate-default

# numbered_runs DIR NAME COUNT ARGS...: COUNT more runs of configs/ci.json (ARGS added), copied to results/DIR/.
numbered_runs() {
  local dir=build-gpu/$1 results=$OUT/results/$1 name=$2 count=$3 i k
  shift 3
  mkdir -p "$dir" "$results"
  for ((i = 0; i < count; ++i)); do
    k=$(find "$dir" -maxdepth 1 -name 'run-*' | wc -l)
    run "$name-$k" "$gb" --workload ci --device cuda -q "$@" -o "$dir/run-$k" || status=1
    cp "$dir/run-$k/results.json" "$results/run-$k.json"
  done
}
stage_ci_runs() { numbered_runs ci-runs ci-run "${CI_RUNS:-4}"; }
stage_aa_repetitions() { numbered_runs aa-repetitions aa-repetitions "${AA_RUNS:-1}" --repetitions "${REPETITIONS:-3}"; }

# calibrate NAME DIR [ARGS]: graphbench calibrate over the runs in build-gpu/DIR, its output into the summary.
calibrate() {
  run "$1" "$gb" calibrate "${@:3}" build-gpu/"$2"/run-*/results.json || status=1
  cat "$OUT/logs/$1.log" >> "$OUT/logs/summary.log"
}
stage_calibrate() {
  mkdir -p "$OUT/results/ci-runs"
  calibrate calibrate ci-runs -o "$OUT/results/ci-runs/gate-calibration.json"
}
stage_aa_overlap() { calibrate aa-overlap aa-repetitions --overlap-only; }

stage_l2() {
  run l2-hot "$gb" --workload gelu --device cuda --variants eager,graph --l2 hot -o "$OUT/results/l2-hot" || status=1
  run l2-cold "$gb" --workload gelu --device cuda --variants eager,graph --l2 cold -o "$OUT/results/l2-cold" || status=1
}

stage_profile_off() {
  run blog-profile-off "$gb" --workload blog --cases gelu-small,gelu-large,replay-overhead --profile off \
    -o "$OUT/results/blog-profile-off" || status=1
}

stage_mnist_host() {
  run mnist-host-eager "$gb" --workload mnist --data-on-host -o "$OUT/results/mnist-host-eager" || status=1
  run mnist-host-graph "$gb" --workload mnist --data-on-host --use-train-graph -o "$OUT/results/mnist-host-graph" || status=1
}

aa_dir=${AA_DIR:-build-gpu/aa-default}

# compare_all OUT PREFIX OTHER [ARGS]: graphbench compare (ARGS, NAME in them the pair's name) of every
# ordered pair of the runs PREFIXrun-* and of each against PREFIXOTHER*: OUT/NAME.txt, OUT/exit-codes.txt.
compare_all() {
  local out=$1 p=$2 other=$3 a b name
  shift 3
  mkdir -p "$out"
  : > "$out/exit-codes.txt"
  for a in "$p"run-*; do
    for b in "$p"run-* "$p$other"*; do
      [[ $a == "$b" ]] && continue
      name="$(basename "$a")-vs-$(basename "$b")"
      "$root/$gb" compare "$a" "$b" "${@//NAME/$name}" > "$out/$name.txt" 2>&1
      echo "$name $?" >> "$out/exit-codes.txt"
    done
  done
}

stage_aa_default_runs() {
  local count
  mkdir -p "$aa_dir"
  while :; do
    count=$(find "$aa_dir" -maxdepth 1 -name 'run-*' -type d | wc -l)
    ((count >= ${AA_RUNS:-6})) && break
    if ((SECONDS + ${AA_RUN_S:-75} > ${AA_LIMIT_S:-540})); then
      echo "runs: $count of ${AA_RUNS:-6} so far; another would not fit this call (${SECONDS} s spent)" | tee -a "$aa_dir/times.log"
      break
    fi
    timed "$aa_dir/times.log" "run-$((count + 1))" "$gb" --workload ci --device cuda -o "$aa_dir/run-$((count + 1))" || status=1
  done
}

stage_aa_default_slow() {
  mkdir -p "$aa_dir"
  timed "$aa_dir/times.log" slow "$gb" --workload ci --device cuda --inject-slowdown graph=2 -o "$aa_dir/slow" || status=1
}

stage_aa_default_summary() {
  local dest=$OUT/results/aa-default d
  for d in "$aa_dir"/run-* "$aa_dir"/slow; do
    [[ -f $d/results.json ]] || continue
    mkdir -p "$dest/$(basename "$d")"
    cp "$d"/results.* "$dest/$(basename "$d")/"
  done
  cp "$aa_dir/times.log" "$dest/times.log" 2> /dev/null
  compare_all "$dest/compare" "$aa_dir/" slow
  run aa-default-summary python3 scripts/aa_summary.py "$aa_dir" "$dest" --copy-to "$OUT" || status=1
}

stage_gate_default() {
  local dir=build-gpu/gate-default dest=$OUT/results/gate-default name
  mkdir -p "$dir" "$dest"
  for ((k = 1; k <= ${GATE_RUNS:-6}; ++k)); do
    timed "$dest/times.log" "run-$k" "$gb" --workload ci --device cuda -q -o "$dir/run-$k" || status=1
  done
  for name in regress-10 regress-25; do
    timed "$dest/times.log" "$name" "$gb" run --config "configs/regress/ci-$name.json" --device cuda -q \
      -o "$dir/$name" || status=1
  done
  for d in "$dir"/*/; do
    name=$(basename "$d")
    mkdir -p "$dest/$name"
    cp "$d"results.json "$d"results.md "$dest/$name/" 2> /dev/null
  done
  (cd "$dest" && compare_all compare "" regress- --json compare/NAME.json)
  python3 scripts/gate_summary.py "$dest" || status=1
}
