# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): the gate's calibration and the measurement
# checks. Runs that add up over calls go to build-gpu/NAME/run-K, K after the last one there (kept
# while the machine stays warm).
#
#   ci-runs   $CI_RUNS (default 4) more no-change runs of configs/ci.json (--device cuda; about a
#             minute each) into build-gpu/ci-runs, copied to results/ci-runs/
#   calibrate graphbench calibrate over every run in build-gpu/ci-runs: the gate's calibration
#             (results/ci-runs/gate-calibration.json), the A/A interval overlap of the runs and,
#             from 4 runs on, the gate's leave-one-out false-alarm and detection rates (docs/ci.md)
#   aa-repetitions  $AA_RUNS (default 1) more such runs, each merged from $REPETITIONS (default 3)
#             repetitions in processes of their own (about 3 minutes a run at 3), into
#             build-gpu/aa-repetitions, copied to results/aa-repetitions/
#   aa-overlap  graphbench calibrate --overlap-only over those runs: how often the merged runs' 95%
#             intervals overlap (docs/measuring.md, repetitions)
#   l2        configs/gelu.json's cases eager and graph with --l2 hot, then --l2 cold (the flush
#             waited for before each step: docs/measuring.md): results/l2-hot, results/l2-cold
#   profile-off  the blog's GELU cases again with --profile off: the same figures show that
#             profiling a case does not slow the cases timed after it
#   mnist-host  the two MNIST runs with --data-on-host (the tutorial's way of feeding)
#
# Issue 50's default runs of the ci suite, as a user runs them (`graphbench --workload ci --device
# cuda`, no other flag), whose intervals must hold from run to run and whose plain `graphbench
# compare` must pass unchanged code and catch a doubled graph step (results/NVIDIA-H200/aa-default):
#   aa-default-runs  default runs into $AA_DIR (default build-gpu/aa-default) until $AA_RUNS (default
#             6) exist, or until another ($AA_RUN_S, default 75 s, the longest run seen so far) would
#             not fit the call ($AA_LIMIT_S, default 540 s from run.sh's start; less when gpu-check.sh
#             build ran in the same call); each run's exit code and wall time in times.log there
#   aa-default-slow  one run with --inject-slowdown graph=2 into $AA_DIR/slow
#   aa-default-summary  graphbench compare on every ordered pair of runs (each must exit 0) and slow
#             against every run (each must exit 1 naming rows); the 95% speedup and median
#             intervals' overlap over the pairs of runs; each run's wall time: results/aa-default
#             (summary.md, by scripts/aa_summary.py, also in $OUT) with the runs' results and the
#             compare outputs
# e.g. BUILD_TARGET=graphbench scripts/gpu-check.sh build && AA_LIMIT_S=420 scripts/campaigns/run.sh
# aa-default-runs in one call, then scripts/campaigns/run.sh aa-default-runs aa-default-slow
# aa-default-summary in a second.
#
# Issue 61's gate check: default runs of the ci suite and two in which gelu-large does 10% and 25%
# more device work under the same name (configs/regress/), so that a plain `graphbench compare` can
# be judged both ways: every ordered pair of unchanged runs must exit 0, every regress run against
# every unchanged one must exit 1 naming gelu-large.
#   gate-default  $GATE_RUNS (default 6) runs into build-gpu/gate-default/run-K, then regress-10 and
#             regress-25; each run's results in results/gate-default/NAME/ and its wall time in
#             times.log there; then every plain compare (text, --json, exit-codes.txt in compare/)
#             and summary.md by scripts/gate_summary.py

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

stage_calibrate() {
  mkdir -p "$OUT/results/ci-runs"
  runs=(build-gpu/ci-runs/run-*/results.json)
  run calibrate "$gb" calibrate "${runs[@]}" -o "$OUT/results/ci-runs/gate-calibration.json" || status=1
  cat "$OUT/logs/calibrate.log" >> "$OUT/logs/summary.log"
}

stage_aa_overlap() {
  runs=(build-gpu/aa-repetitions/run-*/results.json)
  run aa-overlap "$gb" calibrate --overlap-only "${runs[@]}" || status=1
  cat "$OUT/logs/aa-overlap.log" >> "$OUT/logs/summary.log"
}

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
  local dest=$OUT/results/aa-default a b d name
  for d in "$aa_dir"/run-* "$aa_dir"/slow; do
    [[ -f $d/results.json ]] || continue
    mkdir -p "$dest/$(basename "$d")"
    cp "$d"/results.* "$dest/$(basename "$d")/"
  done
  cp "$aa_dir/times.log" "$dest/times.log" 2> /dev/null
  mkdir -p "$dest/compare"
  : > "$dest/compare/exit-codes.txt"
  for a in "$aa_dir"/run-*; do
    for b in "$aa_dir"/run-* "$aa_dir"/slow; do
      [[ $a == "$b" ]] && continue
      name="$(basename "$a")-vs-$(basename "$b")"
      "$gb" compare "$a" "$b" > "$dest/compare/$name.txt" 2>&1
      echo "$name $?" >> "$dest/compare/exit-codes.txt"
    done
  done
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
  gate_default_compares "$dest"
}

# gate_default_compares DEST: the compares and summary of the gate-default stage (no GPU needed).
gate_default_compares() {
  local dest=$1 a b name
  mkdir -p "$dest/compare"
  : > "$dest/compare/exit-codes.txt"
  for a in "$dest"/run-*; do
    for b in "$dest"/run-* "$dest"/regress-*; do
      [[ $a == "$b" ]] && continue
      name="$(basename "$a")-vs-$(basename "$b")"
      (cd "$dest" && "$root/$gb" compare "$(basename "$a")" "$(basename "$b")" --json "compare/$name.json" > "compare/$name.txt" 2>&1
       echo "$name $?" >> compare/exit-codes.txt)
    done
  done
  python3 scripts/gate_summary.py "$dest" || status=1
}
