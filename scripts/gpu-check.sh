#!/usr/bin/env bash
# The project's GPU check, in one call of the device tool (docs/gpu-campaigns.md). Logs and result
# files go under $OUT, packed into $OUT/gpu-results.tgz (the device tool returns at most 8 files).
#
#   scripts/gpu-check.sh STAGE...
#     build     configure and build into build-gpu/ (always first when given); $BUILD_TARGET (e.g.
#               graphbench) builds that target alone
#     test      ctest, all tests ($CTEST_EXCLUDE, $CTEST_INCLUDE: regexes of tests to leave out, to run)
#     gelu linear_dropout blog ci     graphbench --workload NAME
#     mnist     graphbench --workload mnist, eager and --use-train-graph, its targets checked
#               (scripts/mnist_ratios.py; with the tutorial's times when that stage ran first)
#     tutorial  the tutorial's own MNIST program (.tutorial/tutorial-mnist.sh, when carried here)
#     compare   runs of configs/ci.json: an A/A pair compared (exit 0 expected), a third run
#               against the pair (exit 0), one with an injected slowdown (exit 1)
#     python    Python PyTorch's replay figures of the same steps (scripts/python_replay_baseline.py)
#     targets   the blog run (stage blog) against its targets (scripts/blog_targets.py, with the
#               python stage's figures when present) and the README's table (scripts/blog_table.py)
#
# Needs the offline kit in .device-kit/ (the build's Debian packages, the Fashion-MNIST files, and
# device-env.sh that unpacks them), carried to the GPU machine.
set -uo pipefail
# shellcheck source=scripts/gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"

for stage in "$@"; do
  case $stage in
    build)
      nvidia-smi > "$OUT/logs/nvidia-smi.log" 2>&1
      # The tests that export models use $PYTHON's PyTorch, the one graphbench is built against here.
      run configure cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DGRAPHBENCH_TORCH_PYTHON="$(command -v "$py")" || { pack build; exit 1; }
      run build cmake --build build-gpu -j "$(nproc)" ${BUILD_TARGET:+--target "$BUILD_TARGET"} -- -k 0 || { pack build; exit 1; }
      ;;
    test)
      # cpu-only: tests that expect no CUDA (e.g. --device cuda refused) do not apply here.
      run ctest ctest --test-dir build-gpu --output-on-failure -j "${CTEST_JOBS:-4}" --timeout "${CTEST_TIMEOUT:-600}" \
        -LE cpu-only ${CTEST_EXCLUDE:+-E "$CTEST_EXCLUDE"} ${CTEST_INCLUDE:+-R "$CTEST_INCLUDE"} || status=1
      ;;
    gelu|linear_dropout|blog|ci)
      run "$stage" "$gb" --workload "$stage" -o "$OUT/results/$stage" || status=1
      ;;
    mnist)
      run mnist-eager "$gb" --workload mnist -o "$OUT/results/mnist-eager" || status=1
      run mnist-graph "$gb" --workload mnist --use-train-graph -o "$OUT/results/mnist-graph" || status=1
      tutorial_times=()
      [[ -f $OUT/tutorial/times.txt ]] && tutorial_times=(--tutorial-times "$OUT/tutorial/times.txt")
      run mnist-ratios python3 scripts/mnist_ratios.py "$OUT/results/mnist-eager/results.json" \
        "$OUT/results/mnist-graph/results.json" "${tutorial_times[@]}" || status=1
      ;;
    tutorial)
      if [[ -x .tutorial/tutorial-mnist.sh ]]; then
        run tutorial .tutorial/tutorial-mnist.sh .tutorial "$OUT/tutorial" || status=1
      else
        echo "=== tutorial: skipped: no .tutorial/tutorial-mnist.sh here" | tee -a "$OUT/logs/summary.log"
      fi
      ;;
    compare)
      # The slowdown runs every graph step twice: the regressions must be named.
      run ci-a "$gb" --workload ci --device cuda -q --format json,csv,md,gbench -o "$OUT/results/ci-a" || status=1
      run ci-b "$gb" --workload ci --device cuda -q -o "$OUT/results/ci-b" || status=1
      run compare-aa "$gb" compare "$OUT/results/ci-a/results.json" "$OUT/results/ci-b/results.json"
      echo "compare-aa exit $? (0 expected)" | tee -a "$OUT/logs/summary.log"
      run ci-c "$gb" --workload ci --device cuda -q -o "$OUT/results/ci-c" || status=1
      run compare-same "$gb" compare "$OUT/results/ci-a/results.json" "$OUT/results/ci-c/results.json" --aa "$OUT/results/ci-b/results.json"
      echo "compare-same exit $? (0 expected)" | tee -a "$OUT/logs/summary.log"
      run ci-slow "$gb" --workload ci --device cuda -q --inject-slowdown graph=2 -o "$OUT/results/ci-slow" || status=1
      run compare-slow "$gb" compare "$OUT/results/ci-a/results.json" "$OUT/results/ci-slow/results.json" --aa "$OUT/results/ci-b/results.json"
      echo "compare-slow exit $? (1 expected)" | tee -a "$OUT/logs/summary.log"
      ;;
    python)
      run python-baseline python3 scripts/python_replay_baseline.py --output "$OUT/results/python-baseline.json" || status=1
      ;;
    targets)
      baseline=()
      [[ -f "$OUT/results/python-baseline.json" ]] && baseline=(--python "$OUT/results/python-baseline.json")
      run blog-targets python3 scripts/blog_targets.py "$OUT/results/blog/results.json" "${baseline[@]}" || status=1
      run blog-table python3 scripts/blog_table.py "$OUT/results/blog/results.json" || status=1
      ;;
    *)
      if grep -q "^stage_${stage//-/_}()" scripts/campaigns/*.sh; then
        echo "gpu-check.sh: $stage is a measurement campaign: scripts/campaigns/run.sh $stage (after gpu-check.sh build)" >&2
      else
        echo "gpu-check.sh: unknown stage $stage" >&2
      fi
      exit 2
      ;;
  esac
  pack "$stage"
done
exit $status
