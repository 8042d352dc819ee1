# Whole-binary tests: the exit codes and messages users and CI scripts rely on, and short CPU
# runs whose result files are checked (tests/cli/check_results.py).
find_package(Python3 COMPONENTS Interpreter)
# The tests that export models with PyTorch run with this Python (scripts/build-like-gpu.sh points it
# at PyTorch 2.11, the GPU machine's); they show as skipped where it has no torch.
set(GRAPHBENCH_TORCH_PYTHON "${Python3_EXECUTABLE}" CACHE FILEPATH "A Python with PyTorch for the tests that export models (default: the Python found)")
set(GB $<TARGET_FILE:graphbench>)
set(EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)
set(NO_PROGRESS ${CMAKE_CURRENT_SOURCE_DIR}/cli/no_progress.sh)
set(CLI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/cli)
set(OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/cli-out)
# Short sampling so that CPU runs take seconds.
set(QUICK --min-samples 3 --max-samples 5 --min-time 0.02 --max-time 3 --warmup 1)
# The same with time for a case of every GELU variant (seven run on the CPU) at the large shape: the
# case must fit its minimum (core/sampling/case_budget.h) under -j2 on the 2-core machine, or it is skipped.
set(QUICK_ALL_VARIANTS --min-samples 3 --max-samples 5 --min-time 0.02 --max-time 30 --warmup 1)

add_test(NAME "cli: --version" COMMAND ${EXPECT} 0 "^graphbench [0-9]+\\.[0-9]+\\.[0-9]+ \\(LibTorch" -- ${GB} --version)
# The front answers without graphbench-run (so without LibTorch): alone in a folder, compare's help
# works, and a run says that the part that runs workloads is missing (1), naming where it looked.
add_test(NAME "cli: the front answers compare alone, and names graphbench-run where it is missing (1)"
         COMMAND ${EXPECT} 1 "^Usage: graphbench compare .*baseline current" "cannot start .*/front-alone/graphbench-run .*the part of graphbench that runs workloads" --
                 sh -c "rm -rf \"$2\" && mkdir -p \"$2\" && cp \"$1\" \"$2\"/ && \"$2\"/graphbench compare --help && \"$2\"/graphbench --suite gelu"
                 sh ${GB} ${OUT_DIR}/front-alone)
# The run options that need no suite are checked by the front too: a bad one is refused without
# starting graphbench-run (here absent), so without loading LibTorch (run_option_checks.h).
add_test(NAME "cli: the front refuses a bad run option without graphbench-run (2)"
         COMMAND ${EXPECT} 2 "--max-samples: expected a positive integer" "!cannot start" --
                 sh -c "rm -rf \"$2\" && mkdir -p \"$2\" && cp \"$1\" \"$2\"/ && \"$2\"/graphbench --suite gelu --max-samples 0"
                 sh ${GB} ${OUT_DIR}/front-refuses)
# Suites are checked by the front too, against the workload catalog (bench/catalog/): a bad one is
# refused without starting graphbench-run (here absent), and `list` needs none (suite_selection.h).
add_test(NAME "cli: the front lists the workloads and refuses a bad suite without graphbench-run (2)"
         COMMAND ${EXPECT} 2 "^  gelu +GELU as five elementwise ops" "^  torchscript_branches +your own model split"
                 "short_dropout.json: /cases/1/dropout: expected a list of exactly 2 numbers" "!cannot start" --
                 sh -c "rm -rf \"$2\" && mkdir -p \"$2\" && cp \"$1\" \"$2\"/ && \"$2\"/graphbench list && \"$2\"/graphbench run --config \"$3\" --device cpu"
                 sh ${GB} ${OUT_DIR}/front-suite ${CLI_DIR}/short_dropout.json)
# Checks of one command share its run (each start of graphbench-run loads LibTorch).
# --help names the exit codes; the test hooks stay out of it (they still work: see
# --inject-slowdown and --inject-rank-failure below).
add_test(NAME "cli: --help names the exit codes and shows no test hook"
         COMMAND ${EXPECT} 0 "Exit codes: 0" "--filter" "!--inject-slowdown" "!--inject-rank-failure" "!Test only" -- ${GB} --help)
# A bare graphbench: a usage error, with a short usage (the main commands and --help), not the whole --help.
add_test(NAME "cli: no arguments is a usage error that prints a short usage (2)"
         COMMAND ${EXPECT} 2 "nothing to do" "^usage: graphbench --suite NAME" "graphbench --help +every option" "^lines: [1-9]$" --
                 sh -c "out=$(\"$1\" 2>&1); code=$?; printf '%s\\n' \"$out\"; echo \"lines: $(printf '%s\\n' \"$out\" | wc -l)\"; exit $code"
                 sh ${GB})
add_test(NAME "cli: run --help names the capture scopes and shows no test hook"
         COMMAND ${EXPECT} 0 "--filter" "!--inject" "scope=S1,S2,.*full, layer, attention-out, modules=REGEX, auto, fwd-bwd" --
                 ${GB} run --help)
add_test(NAME "cli: unknown option is a usage error (2)" COMMAND ${EXPECT} 2 "" -- ${GB} --workload gelu --bogus)
add_test(NAME "cli: list shows workloads and variants, each suite's cases and the capture scopes"
         COMMAND ${EXPECT} 0 "jit\\+graph" "^ +cases: gelu-small, gelu-large$" "^ +cases: .*replay-overhead" "^Capture scopes"
                 "attention-out" -- ${GB} list)
# --suite (the spelling of --workload that says what it is), --filter by pattern.
add_test(NAME "cli: --suite with --filter runs the cases and variants the pattern matches"
         COMMAND ${EXPECT} 0 "\\[1/1\\] gelu-small" "!gelu-large" -- ${GB} --suite gelu --filter "small/(eager|static)$" --device cpu ${QUICK} -o ${OUT_DIR}/filter)
add_test(NAME "cli: only what --filter matched ran"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/filter/results.json
                 timed:gelu-small/eager timed:gelu-small/static absent:gelu-small/graph absent:gelu-large/eager)
set_tests_properties("cli: only what --filter matched ran" PROPERTIES DEPENDS "cli: --suite with --filter runs the cases and variants the pattern matches")
add_test(NAME "cli: --filter that matches nothing (2)"
         COMMAND ${EXPECT} 2 "--filter \"resnet\": matches no case of suite gelu and no case/variant \\(cases: gelu-small, gelu-large" --
                 ${GB} --suite gelu --filter resnet)
add_test(NAME "cli: --filter that is no regular expression (2)"
         COMMAND ${EXPECT} 2 "--filter \"gelu-\\(\": not a regular expression" -- ${GB} --suite gelu --filter "gelu-(")
add_test(NAME "cli: a workload's name given as a suite names the suite with its cases (2)"
         COMMAND ${EXPECT} 2 "one_kernel is a workload, not a suite; its cases are in blog \\(graphbench --suite blog --filter '\\^replay-overhead\\$'\\)" --
                 ${GB} --workload one_kernel)
add_test(NAME "cli: unknown --workload (2)" COMMAND ${EXPECT} 2 "--suite nope: no suite file" -- ${GB} --workload nope)
add_test(NAME "cli: bad spec names file and JSON path (2)"
         COMMAND ${EXPECT} 2 "bad_shape.json: /cases/1/shape/2: expected a positive integer, got -3" --
                 ${GB} run --config ${CLI_DIR}/bad_shape.json)
# Results that cannot be written at the end of a run are rescued, the earlier files kept.
add_test(NAME "cli: a write that fails at the end keeps the records (standard output) and the earlier files (2)"
         COMMAND ${CLI_DIR}/full_disk.sh ${GB} ${OUT_DIR}/full-disk --workload gelu --device cpu --cases gelu-small
                 --variants eager,static --min-samples 3 --max-samples 3 --min-time 0.01)

# `run --config -`: the suite from standard input (tools that generate suites pipe them).
add_test(NAME "cli: run --config - reads the suite from standard input"
         COMMAND ${EXPECT} 0 "\\| gelu-small +\\| eager" --
                 sh -c "\"$1\" run --config - --device cpu --cases gelu-small --variants eager --min-samples 3 --max-samples 3 --min-time 0.01 -o \"$2\" < \"$3\""
                 sh ${GB} ${OUT_DIR}/stdin ${PROJECT_SOURCE_DIR}/configs/gelu.json)
add_test(NAME "cli: a bad suite on standard input is named <stdin> (2)"
         COMMAND ${EXPECT} 2 "^graphbench: error: <stdin>: /cases/1/shape/2: expected a positive integer, got -3$" --
                 sh -c "\"$1\" run --config - < \"$2\"" sh ${GB} ${CLI_DIR}/bad_shape.json)
add_test(NAME "cli: --config - with --nproc is bad input (2)"
         COMMAND ${EXPECT} 2 "--config -: a data-parallel run starts one process per rank" --
                 sh -c "\"$1\" run --config - --nproc 2 --device cpu < \"$2\"" sh ${GB} ${CLI_DIR}/ddp_cpu.json)
add_test(NAME "cli: unknown workload in spec (2)"
         COMMAND ${EXPECT} 2 "/cases/0/workload: unknown workload \"gelo\"" -- ${GB} run --config ${CLI_DIR}/unknown_workload.json)
add_test(NAME "cli: missing suite file (2)" COMMAND ${EXPECT} 2 "cannot open suite file" -- ${GB} run --config ${CLI_DIR}/nope.json)
add_test(NAME "cli: --device cuda without CUDA (2)"
         COMMAND ${EXPECT} 2 "--device cuda" -- ${GB} --workload gelu --device cuda ${QUICK} -o ${OUT_DIR}/cuda)
set_tests_properties("cli: --device cuda without CUDA (2)" PROPERTIES LABELS cpu-only)
add_test(NAME "cli: unknown --variants (2)" COMMAND ${EXPECT} 2 "unknown variant \"grph\"" -- ${GB} --workload gelu --variants grph)
add_test(NAME "cli: unknown --format (2)" COMMAND ${EXPECT} 2 "unknown format \"xml\"" -- ${GB} --workload gelu --format xml)
add_test(NAME "cli: missing data is bad input (2), recorded"
         COMMAND ${EXPECT} 2 "t10k|train-images-idx3-ubyte.*dataset-fashion-mnist" --
                 ${GB} run --config ${CLI_DIR}/missing_data.json --data-dir ${OUT_DIR}/no-such-dir --device cpu -o ${OUT_DIR}/missing)

# The README's main job on the CPU: eager and static ok, graph variants skipped with a reason (the
# console folds them into one line per case; results.md keeps a row each).
add_test(NAME "cli: gelu on the CPU, no progress lines without a terminal"
         COMMAND ${EXPECT} 0 "^- gelu-small: skipped \\(CUDA graphs need a CUDA device; this run is on the CPU\\): graph, graph:replay, jit\\+graph"
                 "^\\| gelu-small +\\| eager +\\| run +\\| ok +\\|" "!\\| graph +\\| feed\\+replay" "!host \\(us\\)"
                 "^  gelu-small: [a-z+]+ ran [0-9.]+ ± [0-9.]+ times faster than [a-z+]+$" --
                 ${NO_PROGRESS} ${GB} --workload gelu --device cpu ${QUICK_ALL_VARIANTS} -o ${OUT_DIR}/gelu)
add_test(NAME "cli: gelu results files"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/gelu/results.json
                 timed:gelu-small/eager timed:gelu-small/static timed:gelu-large/static timed:gelu-small/jit
                 timed:gelu-small/reference
                 status:gelu-small/graph=skipped status:gelu-large/jit+graph=skipped status:gelu-small/reference+graph=skipped
                 timed:gelu-small/native status:gelu-small/graph:replay=skipped status:gelu-large/native+graph:replay=skipped
                 method:gelu-small/eager=run method:gelu-small/static=feed+run method:gelu-small/graph=feed+replay
                 method:gelu-small/jit+graph:replay=replay
                 cpu:gelu-small/eager cpu:gelu-small/native
                 csv:${OUT_DIR}/gelu/results.csv
                 null:gelu-small/eager=roofline.bandwidth_share null:gelu-small/graph=steps_per_sample
                 null:gelu-small/graph=rel_noise envnull:copy_bandwidth_gbps envnull:sm_count interrupted:no)
set_tests_properties("cli: gelu results files" PROPERTIES DEPENDS "cli: gelu on the CPU, no progress lines without a terminal")

# The shipped sweep that needs model files says which file is missing and which script makes it
# (a copy of the suite, so that model files made in the checkout cannot hide the message); the
# shipped CPU sweep runs (two of its points here, for time) and its times can be plotted.
add_test(NAME "cli: configs/sweeps.json without its model files names the script that makes them (2)"
         COMMAND ${EXPECT} 2 "/cases/3/path: .*hf-gpt2-b1-decode-m256-p128-bfloat16.pt2: no such file \\(case gpt2-decode\\[batch=1\\]; the suite says it is made by: scripts/sweep-models.sh .*needs PyTorch" "!\\[1/" --
                 sh -c "mkdir -p \"$2/configs\" && cp \"$3\" \"$2/configs/\" && exec \"$1\" run --config \"$2/configs/sweeps.json\" --device cpu -o \"$2/out\""
                 sh ${GB} ${OUT_DIR}/sweeps-missing ${PROJECT_SOURCE_DIR}/configs/sweeps.json)
add_test(NAME "cli: configs/sweep-gelu.json runs as shipped on the CPU"
         COMMAND ${EXPECT} 0 "\\| gelu\\[batch=2\\] +\\| static +\\|" --
                 ${GB} run --config ${PROJECT_SOURCE_DIR}/configs/sweep-gelu.json --device cpu --sweep batch=1,2 --max-time 3
                 --min-samples 3 --max-samples 5 --warmup 1 -o ${OUT_DIR}/sweep-gelu)

# The engine-versus-bare replay case runs its non-graph variants on the CPU; --l2 and --profile
# are accepted (they change nothing without a GPU) and checked.
add_test(NAME "cli: the replay-overhead case on the CPU, --l2 cold --profile off"
         COMMAND ${EXPECT} 0 "^- replay-overhead: skipped \\(.*\\): .*reference\\+graph:replay" --
                 ${GB} run --config ${PROJECT_SOURCE_DIR}/configs/blog.json --cases replay-overhead --device cpu
                 --l2 cold --profile off ${QUICK} -o ${OUT_DIR}/replay-overhead)
add_test(NAME "cli: replay-overhead results"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/replay-overhead/results.json
                 timed:replay-overhead/eager timed:replay-overhead/reference cpu:replay-overhead/reference
                 status:replay-overhead/graph:replay=skipped status:replay-overhead/reference+graph:replay=skipped)
set_tests_properties("cli: replay-overhead results" PROPERTIES DEPENDS "cli: the replay-overhead case on the CPU, --l2 cold --profile off")
add_test(NAME "cli: bad --l2 (2)" COMMAND ${EXPECT} 2 "--l2" -- ${GB} --workload gelu --l2 warm)
add_test(NAME "cli: bad --profile (2)" COMMAND ${EXPECT} 2 "--profile" -- ${GB} --workload gelu --profile maybe)
add_test(NAME "cli: bad --energy (2)" COMMAND ${EXPECT} 2 "--energy" -- ${GB} --workload gelu --energy maybe)
# Energy is read from a GPU's NVML counter: on the CPU --energy on warns, runs, and writes no figure.
add_test(NAME "cli: --energy on on the CPU warns and writes no energy"
         COMMAND ${EXPECT} 0 "^graphbench: warning: --energy on: energy is read from a GPU's NVML counter" "!energy / step" --
                 ${GB} --workload gelu --device cpu --cases gelu-small --variants eager --energy on ${QUICK}
                 -o ${OUT_DIR}/energy-cpu)

add_test(NAME "cli: linear_dropout training step on the CPU"
         COMMAND ${EXPECT} 0 "linear-dropout-small" --
                 ${GB} --workload linear_dropout --device cpu --cases linear-dropout-small ${QUICK} -o ${OUT_DIR}/linear)
add_test(NAME "cli: linear_dropout results"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/linear/results.json
                 timed:linear-dropout-small/eager timed:linear-dropout-small/static timed:linear-dropout-small/reference
                 status:linear-dropout-small/graph=skipped)
set_tests_properties("cli: linear_dropout results" PROPERTIES DEPENDS "cli: linear_dropout training step on the CPU")

# The tutorial's lines, one epoch on the CPU, on the first 12800 training and 1000 test pictures
# of Debian's Fashion-MNIST (a subset made by the fixture below): enough to prove that the
# lines are printed and that the network learns, in a fifth of a whole epoch's time.
set(MNIST_SUBSET ${OUT_DIR}/fashion-mnist-12800)
if(DEFINED ENV{GRAPHBENCH_DATA})  # where graphbench itself looks first (machines without Debian's package)
  set(MNIST_SOURCE $ENV{GRAPHBENCH_DATA})
else()
  set(MNIST_SOURCE /usr/share/datasets/fashion-mnist)
endif()
add_test(NAME "cli: a 12800-picture subset of Fashion-MNIST"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/make_idx.py ${MNIST_SUBSET} 12800 1000 --from ${MNIST_SOURCE})
set_tests_properties("cli: a 12800-picture subset of Fashion-MNIST" PROPERTIES FIXTURES_SETUP mnist_subset)
add_test(NAME "cli: mnist one epoch on the CPU prints the tutorial's lines"
         COMMAND ${EXPECT} 0 "^Data: .*on the device, every batch gathered there by the step, sequential order$"
                 "^Train Epoch: 1 \\[12224/12800\\] Loss: [0-9]+\\.[0-9]{4}$"
                 "^Test set: Average loss: [0-9]+\\.[0-9]{4} \\| Accuracy: 0\\.[0-9]{3}$"
                 "^Total time: [0-9.]+ s \\(load [0-9.]+ s, setup [0-9.]+ s, capture [0-9.]+ s, training [0-9.]+ s, testing [0-9.]+ s, other -?[0-9.]+ s\\); 200 steps"
                 "^  mnist-tutorial: one training step took .* on this device, so this run takes about .* \\(1 epoch of about .*; its time limit: 5 min 00 s\\)$" --
                 ${NO_PROGRESS} ${GB} --workload mnist --device cpu --epochs 1 --max-time 300 --data-dir ${MNIST_SUBSET} -o ${OUT_DIR}/mnist)
set_tests_properties("cli: mnist one epoch on the CPU prints the tutorial's lines" PROPERTIES FIXTURES_REQUIRED mnist_subset)
add_test(NAME "cli: mnist learned"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/mnist/results.json learned:mnist-tutorial/eager
                 breakdown:mnist-tutorial/eager training:mnist-tutorial/eager:data_placement=device
                 training:mnist-tutorial/eager:batch_order=sequential)
set_tests_properties("cli: mnist learned" PROPERTIES DEPENDS "cli: mnist one epoch on the CPU prints the tutorial's lines")
# The tutorial's way of feeding (host memory, a copy per batch), in a shuffled order. Both epochs
# get 5 minutes: under a loaded ctest one probed step has taken 318 ms (an epoch estimated past 1 min).
add_test(NAME "cli: mnist --data-on-host --shuffle"
         COMMAND ${EXPECT} 0 "^Data: .*in host memory, every batch copied to the device, shuffled order$"
                 "^Train Epoch: 1 \\[12224/12800\\] Loss: [0-9]+\\.[0-9]{4}$" --
                 ${GB} --workload mnist --device cpu --epochs 1 --data-on-host --shuffle --max-time 300 --data-dir ${MNIST_SUBSET}
                 -o ${OUT_DIR}/mnist-host)
set_tests_properties("cli: mnist --data-on-host --shuffle" PROPERTIES FIXTURES_REQUIRED mnist_subset)
add_test(NAME "cli: mnist --data-on-host learned, its record says so"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/mnist-host/results.json
                 learned:mnist-tutorial/eager training:mnist-tutorial/eager:data_placement=host
                 training:mnist-tutorial/eager:batch_order=shuffled)
set_tests_properties("cli: mnist --data-on-host learned, its record says so" PROPERTIES DEPENDS "cli: mnist --data-on-host --shuffle")
# A training case is held to its time limit (core/sampling/case_budget.h, plan_training): skipped before
# its first epoch where one cannot fit, with the --max-time that gives it one and all; otherwise
# cut to the whole epochs that fit, its record saying so. 128 pictures: an epoch of 2 steps.
add_test(NAME "cli: a training case whose epoch cannot fit its limit is skipped before it starts, with the --max-time it needs"
         COMMAND ${EXPECT} 0 "^  mnist-tutorial: skipped before it started: one training step took .* so one epoch \\(200 steps and its test pass\\) takes about .*, more than its time limit of 50 ms allows: --max-time [0-9]+ gives it one epoch, --max-time [0-9]+ all 10$"
                 "!^Train Epoch" --
                 ${GB} --workload mnist --device cpu --max-time 0.05 --data-dir ${MNIST_SUBSET} -o ${OUT_DIR}/mnist-too-long)
set_tests_properties("cli: a training case whose epoch cannot fit its limit is skipped before it starts, with the --max-time it needs"
                     PROPERTIES FIXTURES_REQUIRED mnist_subset)
add_test(NAME "cli: a 128-picture subset of Fashion-MNIST"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/make_idx.py ${OUT_DIR}/mnist-128 128 100 --from ${MNIST_SOURCE})
set_tests_properties("cli: a 128-picture subset of Fashion-MNIST" PROPERTIES FIXTURES_SETUP mnist_128)
# 2 s, where one epoch of the subset takes about 40 ms: in the CUDA build's ctest on a busy 2-core
# machine (commit d3640af) a training step took 317 ms, an epoch of 2 steps and its test pass still
# under 1 s, so that at least one epoch fits and the run is cut.
add_test(NAME "cli: a training case trains the whole epochs that fit its limit, and says so"
         COMMAND ${EXPECT} 0 "^  mnist-tutorial: one training step took .* so [0-9]+ of its 1000 epochs fit its time limit of 2.0 s: this run takes about .* --max-time [0-9]+ gives it all 1000\\)$"
                 "trained [0-9]+ of 1000 epochs: another would have ended past the time limit of 2.0 s" --
                 ${GB} --workload mnist --device cpu --epochs 1000 --max-time 2 --data-dir ${OUT_DIR}/mnist-128 -o ${OUT_DIR}/mnist-cut)
set_tests_properties("cli: a training case trains the whole epochs that fit its limit, and says so"
                     PROPERTIES FIXTURES_REQUIRED mnist_128)

# Your own model: small TorchScript models and suites written by graphbench_test_models (built in
# C++, no Python), run by the binary as a user runs an exported model.
set(MODELS_DIR ${OUT_DIR}/models)
add_test(NAME "cli: models: write the test models" COMMAND $<TARGET_FILE:graphbench_test_models_writer> ${MODELS_DIR})
set_tests_properties("cli: models: write the test models" PROPERTIES FIXTURES_SETUP test_models)
add_test(NAME "cli: models: inference and a training step of a TorchScript model on the CPU (0)"
         COMMAND ${EXPECT} 0 "\\| mlp +\\| static +\\| feed\\+run +\\| ok" "\\| mlp-train +\\| static +\\| feed\\+run +\\| ok"
                 "^- mlp: skipped \\(CUDA graphs need a CUDA device.*\\): graph" --
                 ${GB} run --config ${MODELS_DIR}/models_ok.json --device cpu ${QUICK} -o ${OUT_DIR}/models-ok)
add_test(NAME "cli: models: a missing model file is bad input, found before anything runs (2)"
         COMMAND ${EXPECT} 2 "models_missing.json: /cases/1/path: .*missing.pt: no such file \\(case missing; make model files with scripts/export_model.py"
                 "!\\[1/2\\]" --
                 ${GB} run --config ${MODELS_DIR}/models_missing.json --device cpu ${QUICK} -o ${OUT_DIR}/models-missing)
add_test(NAME "cli: models: a model that rejects its inputs fails its case, the run goes on (1)"
         COMMAND ${EXPECT} 1 "wrong-shape/eager FAILED: setting up the case failed: model .*mlp.pt rejects the inputs float32\\[4, 7\\] on cpu: RuntimeError: mat1 and mat2 shapes cannot be multiplied"
                 "\\| mlp +\\| eager +\\| run +\\| ok" --
                 ${GB} run --config ${MODELS_DIR}/models_throws.json --device cpu ${QUICK} -o ${OUT_DIR}/models-throws)
set_tests_properties("cli: models: inference and a training step of a TorchScript model on the CPU (0)"
                     "cli: models: a missing model file is bad input, found before anything runs (2)"
                     "cli: models: a model that rejects its inputs fails its case, the run goes on (1)"
                     PROPERTIES FIXTURES_REQUIRED test_models)

# The Python side's checks (the model scripts, your own code, pieces, the cache as state, the
# data-parallel baseline, the training step): tests/python/PythonTests.cmake.
file(MAKE_DIRECTORY ${OUT_DIR}/models-config/configs)
configure_file(${PROJECT_SOURCE_DIR}/configs/models.json ${OUT_DIR}/models-config/configs/models.json COPYONLY)
add_test(NAME "cli: models: configs/models.json without its model files says how to make them (2)"
         COMMAND ${EXPECT} 2 "configs/models.json: /cases/0/path: .*/models/resnet50-b1.pt: no such file \\(case resnet50-b1-pt; the suite says it is made by: python3 scripts/export_model.py torchvision:resnet50 .*; that script needs PyTorch" --
                 ${GB} run --config ${OUT_DIR}/models-config/configs/models.json --device cpu -o ${OUT_DIR}/models-config/out)

# compare: the CI gate's exit codes on golden files.
set(GOLDEN ${CMAKE_CURRENT_SOURCE_DIR}/golden/compare)
add_test(NAME "cli: compare unchanged (0)" COMMAND ${EXPECT} 0 "SAME" -- ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json)
# The golden runs are of one process each: without --aa or --calibration a 1.5x slowdown is no
# verdict (a move between processes of unchanged code reached 1.53x), and the output says why.
add_test(NAME "cli: compare of one-process runs does not call 1.5x SLOWER and says why (0)"
         COMMAND ${EXPECT} 0 "UNSURE" "one process on a side, no process-level interval" "graphbench calibrate" "!REGRESSION" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_slower.json)
add_test(NAME "cli: compare slower names the regression, the baseline its own A/A pair (1)"
         COMMAND ${EXPECT} 1 "REGRESSION: .* slower" -- ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_slower.json
                 --aa ${GOLDEN}/baseline.json)
add_test(NAME "cli: compare --help points to calibrate (0)"
         COMMAND ${EXPECT} 0 "graphbench calibrate RUN1 RUN2 RUN3" -- ${GB} compare --help)
add_test(NAME "cli: compare faster (0)" COMMAND ${EXPECT} 0 "FASTER" -- ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_faster.json --threshold 5%)
add_test(NAME "cli: compare with an A/A baseline still names a 1.5x regression (1)"
         COMMAND ${EXPECT} 1 "A/A: " "REGRESSION: .* slower" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_slower.json --aa ${GOLDEN}/current_unchanged.json)
# compare takes the folders a run writes (-o DIR) and writes the verdicts as JSON.
add_test(NAME "cli: compare two run folders, the verdicts also as JSON (1)"
         COMMAND ${EXPECT} 1 "REGRESSION: .* slower" "wrote .*verdicts.json" --
                 sh -c "mkdir -p \"$2/a\" \"$2/b\" && cp \"$3\" \"$2/a/results.json\" && cp \"$4\" \"$2/b/results.json\" && exec \"$1\" compare \"$2/a\" \"$2/b\" --aa \"$3\" --json \"$2/verdicts.json\""
                 sh ${GB} ${OUT_DIR}/compare-folders ${GOLDEN}/baseline.json ${GOLDEN}/current_slower.json)
add_test(NAME "cli: the JSON verdicts name the regression"
         COMMAND ${Python3_EXECUTABLE} -c "import json, sys; d = json.load(open(sys.argv[1])); bad = [r for r in d['rows'] if r['regression']]; sys.exit(0 if d['exit_code'] == 1 and d['regressions'] == len(bad) > 0 and all(r['verdict'] == 'SLOWER' and r['ratio'] > 1 for r in bad) else 1)"
                 ${OUT_DIR}/compare-folders/verdicts.json)
set_tests_properties("cli: the JSON verdicts name the regression" PROPERTIES DEPENDS "cli: compare two run folders, the verdicts also as JSON (1)")
add_test(NAME "cli: compare a folder without results.json (2)"
         COMMAND ${EXPECT} 2 "cli: a folder without results.json" -- ${GB} compare ${CLI_DIR} ${GOLDEN}/baseline.json)
add_test(NAME "cli: compare malformed file (2)" COMMAND ${EXPECT} 2 "malformed.json" -- ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/malformed.json)
add_test(NAME "cli: compare an ok record without samples is a corrupt file, never a pass (2)"
         COMMAND ${EXPECT} 2 "current_empty_samples.json: /records/0/samples_us: an ok record .* without samples" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_empty_samples.json)
add_test(NAME "cli: compare bad threshold (2)" COMMAND ${EXPECT} 2 "--threshold" -- ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json --threshold abc)

add_test(NAME "cli: compare a training run 1.5x slower, the baseline its own A/A pair (1)"
         COMMAND ${EXPECT} 1 "REGRESSION: mnist-tutorial/static is 1\\.50x slower" "REGRESSION: mnist-tutorial/static total time is 1\\.50x slower" --
                 ${GB} compare ${GOLDEN}/training_baseline.json ${GOLDEN}/training_slower.json --aa ${GOLDEN}/training_baseline.json)
add_test(NAME "cli: compare a training run with a test accuracy drop beyond the tolerance (1)"
         COMMAND ${EXPECT} 1 "REGRESSION: mnist-tutorial/static final test accuracy dropped by" "LESS ACCURATE" --
                 ${GB} compare ${GOLDEN}/training_baseline.json ${GOLDEN}/training_less_accurate.json)
add_test(NAME "cli: compare a training run with an accuracy change within the tolerance (0)"
         COMMAND ${EXPECT} 0 "No regression" "!REGRESSION" --
                 ${GB} compare ${GOLDEN}/training_baseline.json ${GOLDEN}/training_accuracy_within.json)
add_test(NAME "cli: compare --accuracy-tolerance widens the accuracy gate (0)"
         COMMAND ${EXPECT} 0 "No regression" --
                 ${GB} compare ${GOLDEN}/training_baseline.json ${GOLDEN}/training_less_accurate.json --accuracy-tolerance 50%)
add_test(NAME "cli: compare files with no record in common (2)"
         COMMAND ${EXPECT} 2 "no record \\(case and variant\\) in common" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/training_baseline.json)
add_test(NAME "cli: compare --aa of another suite (2)"
         COMMAND ${EXPECT} 2 "--aa is a run of suite \"mnist\"" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json --aa ${GOLDEN}/training_baseline.json)
add_test(NAME "cli: compare an overflowing number in the baseline is bad input, never a regression (2)"
         COMMAND ${EXPECT} 2 "overflow.json: line [0-9]+, column [0-9]+: number 1e999 does not fit in a double" --
                 ${GB} compare ${GOLDEN}/overflow.json ${GOLDEN}/current_slower.json)

# A record ok in the baseline and lost now (skipped, missing, too few samples) fails the gate
# unless --allow-missing; --threshold above 1 is refused rather than read as a multiple.
add_test(NAME "cli: compare a runner that lost its GPU (graphs skipped) fails the gate (1)"
         COMMAND ${EXPECT} 1 "REGRESSION: gelu-small/graph was ok in baseline, skipped in current: CUDA graphs need a CUDA device" "3 SKIPPED"
                 "3 regressions \\(exit 1\\)" -- ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_lost_gpu.json)
add_test(NAME "cli: compare --allow-missing lets the skipped graphs pass (0)"
         COMMAND ${EXPECT} 0 "3 records ok in the baseline lost by current, let pass by --allow-missing" "!REGRESSION" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_lost_gpu.json --allow-missing)
add_test(NAME "cli: compare a record missing from current fails the gate (1)"
         COMMAND ${EXPECT} 1 "REGRESSION: linear-dropout/graph is missing from current" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_missing.json)
add_test(NAME "cli: compare --fail-on-missing is deprecated and changes nothing (1)"
         COMMAND ${EXPECT} 1 "warning: --fail-on-missing is deprecated" "REGRESSION: linear-dropout/graph is missing" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_missing.json --fail-on-missing)
add_test(NAME "cli: compare --fail-on-missing with --allow-missing (2)"
         COMMAND ${EXPECT} 2 "--fail-on-missing and --allow-missing contradict each other" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_missing.json --fail-on-missing --allow-missing)
add_test(NAME "cli: compare a record with too few samples now: no interval, a regression (1)"
         COMMAND ${EXPECT} 1 "\\| gelu-small \\| graph \\| step time \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| - \\| - \\| FEW SAMPLES \\| - \\| current has 3 samples, fewer than --min-samples 5: no interval \\|"
                 "REGRESSION: gelu-small/graph has too few samples in current" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_few_samples.json)
add_test(NAME "cli: compare --threshold 5 is refused, not read as 500% (2)"
         COMMAND ${EXPECT} 2 "--threshold: \"5\" is a fraction, 500%; a threshold is at most 1 \\(100%\\): for 5 percent write 5% or 0.05" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json --threshold 5)
add_test(NAME "cli: compare --threshold 150% is refused (2)"
         COMMAND ${EXPECT} 2 "--threshold: expected at most 100%, got \"150%\"" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json --threshold 150%)
# calibrate: the gate's calibration from no-change runs (docs/ci.md), and compare --calibration.
set(CALIBRATION ${OUT_DIR}/calibrate/gate-calibration.json)
add_test(NAME "cli: calibrate three runs writes the calibration (0)"
         COMMAND ${EXPECT} 0 "Gate calibration of suite \"ci\"" "block bootstrap over rounds" "needs at least 4 runs"
                 "Wrote .*gate-calibration.json" --
                 ${GB} calibrate ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json ${GOLDEN}/current_noisy.json
                 -o ${CALIBRATION})
add_test(NAME "cli: calibrate four runs evaluates the gate leave-one-out (0)"
         COMMAND ${EXPECT} 0 "metric time: no-change comparisons failing the gate [0-9]+/12"
                 "metric speedup: no-change comparisons failing the gate [0-9]+/12 .*slowdowns caught [0-9]+/36" --
                 ${GB} calibrate ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json ${GOLDEN}/current_noisy.json
                 ${GOLDEN}/current_speedup.json)
add_test(NAME "cli: calibrate from fewer than 3 runs (2)"
         COMMAND ${EXPECT} 2 "2 run.s. given, at least 3 no-change runs" --
                 ${GB} calibrate ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json)
add_test(NAME "cli: calibrate runs of different suites (2)"
         COMMAND ${EXPECT} 2 "training_baseline.json: a run of suite \"mnist\" but .*baseline.json is of suite \"ci\"" --
                 ${GB} calibrate ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json ${GOLDEN}/training_baseline.json)
add_test(NAME "cli: calibrate a bad --alpha (2)"
         COMMAND ${EXPECT} 2 "--alpha" -- ${GB} calibrate ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json
                 ${GOLDEN}/current_noisy.json --alpha 2)
# golden/compare/hand-calibration.json (not named gate-calibration.json, which compare would take
# for the baseline's own): four runs within 1% of each other, written by hand.
add_test(NAME "cli: compare --calibration names a 1.5x regression (1)"
         COMMAND ${EXPECT} 1 "Calibration: .*hand-calibration.json \\(9 records" "REGRESSION: gelu-small/graph is 1.52x slower" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_slower.json --calibration ${GOLDEN}/hand-calibration.json)
add_test(NAME "cli: compare --calibration passes an unchanged run (0)"
         COMMAND ${EXPECT} 0 "run-to-run sd" "No regression" -- ${GB} compare ${GOLDEN}/baseline.json
                 ${GOLDEN}/current_unchanged.json --calibration ${GOLDEN}/hand-calibration.json)
add_test(NAME "cli: compare --calibration of the calibrate test's file (0)"
         COMMAND ${EXPECT} 0 "Calibration: .*gate-calibration.json" -- ${GB} compare ${GOLDEN}/baseline.json
                 ${GOLDEN}/current_unchanged.json --calibration ${CALIBRATION})
add_test(NAME "cli: compare --calibration with --aa (2)"
         COMMAND ${EXPECT} 2 "--aa and --calibration" -- ${GB} compare ${GOLDEN}/baseline.json
                 ${GOLDEN}/current_unchanged.json --calibration ${CALIBRATION} --aa ${GOLDEN}/current_noisy.json)
add_test(NAME "cli: compare --calibration of a results file (2)"
         COMMAND ${EXPECT} 2 "baseline.json: no \"kind\": not a calibration file" --
                 ${GB} compare ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json --calibration ${GOLDEN}/baseline.json)
add_test(NAME "cli: compare --calibration of another suite is bad input naming the file and the field (2)"
         COMMAND ${EXPECT} 2 "other-suite.json: /suite: the calibration is of suite \"blog\"" --
                 sh -c "sed 's/\"suite\": \"ci\"/\"suite\": \"blog\"/' \"$2\" > \"$3/other-suite.json\" && exec \"$1\" compare \"$4\" \"$5\" --calibration \"$3/other-suite.json\""
                 sh ${GB} ${GOLDEN}/hand-calibration.json ${OUT_DIR} ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json)
# A calibration travels with its baseline: calibrate -o FOLDER writes FOLDER/gate-calibration.json,
# and a plain compare of that folder judges by it (its rows name the calibration as their rule).
add_test(NAME "cli: compare finds the calibration beside the baseline (0)"
         COMMAND ${EXPECT} 0 "Wrote .*beside/gate-calibration.json" "found beside the baseline" "calibration \\(3 runs\\)"
                 "!one process on a side" --
                 sh -c "rm -rf \"$2/beside\" && mkdir -p \"$2/beside\" && cp \"$3\" \"$2/beside/results.json\" && \"$1\" calibrate \"$3\" \"$4\" \"$5\" -o \"$2/beside\" && exec \"$1\" compare \"$2/beside\" \"$6\""
                 sh ${GB} ${OUT_DIR} ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json ${GOLDEN}/current_noisy.json
                 ${GOLDEN}/current_slower.json)
add_test(NAME "cli: compare --no-calibration ignores the calibration beside the baseline (0)"
         COMMAND ${EXPECT} 0 "!found beside the baseline" "one process on a side" --
                 ${GB} compare ${OUT_DIR}/beside ${GOLDEN}/current_slower.json --no-calibration)
set_tests_properties("cli: compare --no-calibration ignores the calibration beside the baseline (0)"
                     PROPERTIES DEPENDS "cli: compare finds the calibration beside the baseline (0)")
set_tests_properties("cli: calibrate three runs writes the calibration (0)" PROPERTIES FIXTURES_SETUP gate_calibration)
set_tests_properties("cli: compare --calibration of the calibrate test's file (0)" "cli: compare --calibration with --aa (2)"
                     PROPERTIES FIXTURES_REQUIRED gate_calibration)

# report: the files of an earlier run written again from its results.json, the sweep verdict judged
# again (the MNIST step of results/NVIDIA-H200/sweeps at 4096, 8192 and 16384).
add_test(NAME "cli: report writes results.md again with this version's sweep verdict (0)"
         COMMAND ${EXPECT} 0 "Faster than eager with 95% confidence up to batch=4096 \\(not at 8192; faster again at 16384\\)"
                 "\"crossover\": 4096" --
                 sh -c "\"$1\" report \"$2\" -o \"$3\" -q && cat \"$3/results.md\" \"$3/results.json\""
                 sh ${GB} ${CMAKE_CURRENT_SOURCE_DIR}/golden/report_sweep.json ${OUT_DIR}/report-sweep)
# golden/report_serving.json: a decoding step swept at vLLM's sizes up to 32, its figures given by
# hand (graph 300 to 400 us, eager 1000 us, 16 MiB a pool): graphbench's 5 graphs against vLLM's 7.
add_test(NAME "cli: report sets a batch sweep from 1 against vLLM's capture list (0)"
         COMMAND ${EXPECT} 0 "Against vLLM's default list, every real batch from 1 to 32"
                 "\\| vLLM default \\| 1, 2, 4, 8, 16, 24, 32 \\| 7 \\|"
                 "0.71x the graphs, 0.71x the pool memory, 0.71x the capture time: misses the aim"
                 "\"vllm_comparison\": \\{" --
                 sh -c "\"$1\" report \"$2\" -o \"$3\" -q && cat \"$3/results.md\" \"$3/results.json\""
                 sh ${GB} ${CMAKE_CURRENT_SOURCE_DIR}/golden/report_serving.json ${OUT_DIR}/report-serving)
add_test(NAME "cli: report of a file that is not there (2)"
         COMMAND ${EXPECT} 2 "no-such-results.json" -- ${GB} report ${OUT_DIR}/no-such-results.json -o ${OUT_DIR}/report-none)

# Hostile input (docs/results.md, docs/spec.md): bad input is exit 2 and names the file, checked
# before anything runs ("!\\[1/" : no case started).
string(REPEAT "[" 100000 GB_DEEP)
file(WRITE ${OUT_DIR}/deep.json "{\"suite\": \"deep\", \"cases\": ${GB_DEEP}")
file(WRITE ${OUT_DIR}/deep_results.json "{\"schema_version\": 1, \"records\": ${GB_DEEP}")
file(WRITE ${OUT_DIR}/hostile-configs/deep.json "{\"suite\": \"deep\", \"cases\": ${GB_DEEP}")
file(WRITE ${OUT_DIR}/hostile-configs/fine.json "{\"suite\": \"fine\", \"description\": \"a fine suite\", \"cases\": []}")
add_test(NAME "cli: a deeply nested suite file is bad input (2)"
         COMMAND ${EXPECT} 2 "deep.json: /cases(/0)+: nesting deeper than 64 levels" -- ${GB} run --config ${OUT_DIR}/deep.json)
add_test(NAME "cli: a deeply nested results file is bad input in compare (2)"
         COMMAND ${EXPECT} 2 "deep_results.json: /records(/0)+: nesting deeper than 64 levels" --
                 ${GB} compare ${OUT_DIR}/deep_results.json ${GOLDEN}/baseline.json)
add_test(NAME "cli: list survives a hostile suite file"
         COMMAND ${EXPECT} 0 "deep +\\(unreadable: .*nesting deeper than 64 levels" "fine +a fine suite" --
                 ${GB} --configs-dir ${OUT_DIR}/hostile-configs list)
add_test(NAME "cli: a number that overflows in a suite file names the file (2)"
         COMMAND ${EXPECT} 2 "overflow_suite.json: line 5, column [0-9]+: number 1e999 does not fit in a double" --
                 ${GB} run --config ${CLI_DIR}/overflow_suite.json)
add_test(NAME "cli: a key written twice is bad input naming it (2)"
         COMMAND ${EXPECT} 2 "duplicate_key.json: /cases/0/shape: duplicate key \"shape\"" --
                 ${GB} run --config ${CLI_DIR}/duplicate_key.json)
add_test(NAME "cli: a suite name that is a path is bad input (2)"
         COMMAND ${EXPECT} 2 "unsafe_suite_name.json: /suite: expected a suite name of" --
                 ${GB} run --config ${CLI_DIR}/unsafe_suite_name.json)
add_test(NAME "cli: --workload that is a path is bad input (2)"
         COMMAND ${EXPECT} 2 "--suite \"../configs/gelu\": expected the name of a suite" -- ${GB} --workload ../configs/gelu)
add_test(NAME "cli: linear_dropout's dropout length is checked before anything runs (2)"
         COMMAND ${EXPECT} 2 "short_dropout.json: /cases/1/dropout: expected a list of exactly 2 numbers" "!\\[1/" --
                 ${GB} run --config ${CLI_DIR}/short_dropout.json --device cpu -o ${OUT_DIR}/short-dropout)
add_test(NAME "cli: --workload together with run --config (2)"
         COMMAND ${EXPECT} 2 "--suite \\(--workload\\) and run --config both say what to run" --
                 ${GB} --workload gelu run --config ${CLI_DIR}/comma_case.json)
add_test(NAME "cli: a main-command option before run is refused (2)"
         COMMAND ${EXPECT} 2 "--device is an option of the main command" --
                 ${GB} --device cpu run --config ${CLI_DIR}/comma_case.json)
add_test(NAME "cli: --min-samples above --max-samples (2)"
         COMMAND ${EXPECT} 2 "--min-samples 9 is above --max-samples 3" -- ${GB} --workload gelu --min-samples 9 --max-samples 3)
add_test(NAME "cli: --min-time above --max-time (2)"
         COMMAND ${EXPECT} 2 "--min-time 5 is above --max-time 1" -- ${GB} --workload gelu --min-time 5 --max-time 1)
add_test(NAME "cli: --variants given empty (2)"
         COMMAND ${EXPECT} 2 "--variants: no variant given" -- ${GB} --workload gelu --variants "")
add_test(NAME "cli: --cases given empty (2)"
         COMMAND ${EXPECT} 2 "--cases: empty case name" -- ${GB} --workload gelu --cases "")
add_test(NAME "cli: an output directory that cannot be written is refused before running (2)"
         COMMAND ${EXPECT} 2 "output directory /proc/graphbench-out: cannot create it" "!\\[1/" --
                 ${GB} --workload gelu --device cpu -o /proc/graphbench-out)
add_test(NAME "cli: an output path that is a file is refused before running (2)"
         COMMAND ${EXPECT} 2 "output directory ${CLI_DIR}/comma_case.json: not a directory" "!\\[1/" --
                 ${GB} --workload gelu --device cpu -o ${CLI_DIR}/comma_case.json)
add_test(NAME "cli: -q still reports every case failure on stderr"
         COMMAND ${EXPECT} 2 "graphbench: step/eager FAILED: .*train-images-idx3-ubyte" "!\\[1/" --
                 ${GB} run --config ${CLI_DIR}/missing_data.json --data-dir ${OUT_DIR}/no-such-dir --device cpu -q -o ${OUT_DIR}/quiet)
add_test(NAME "cli: a case name with a comma is chosen with --cases"
         COMMAND ${EXPECT} 0 "" -- ${GB} run --config ${CLI_DIR}/comma_case.json --cases "gelu\\, small" --device cpu ${QUICK} -o ${OUT_DIR}/comma)
add_test(NAME "cli: only the case with the comma ran"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/comma/results.json
                 "timed:gelu, small/eager" absent:gelu/eager)
set_tests_properties("cli: only the case with the comma ran" PROPERTIES DEPENDS "cli: a case name with a comma is chosen with --cases")

# The result files are replaced as a set: a run with --format json leaves no CSV, Markdown or
# gbench file of the earlier run beside its JSON.
add_test(NAME "cli: every format, gbench included"
         COMMAND ${EXPECT} 0 "wrote .*results.gbench.json" --
                 ${GB} run --config ${CLI_DIR}/comma_case.json --device cpu ${QUICK} --format json,csv,md,gbench -o ${OUT_DIR}/set)
add_test(NAME "cli: the gbench file has Google Benchmark's fields"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/set/results.json
                 gbench:${OUT_DIR}/set/results.gbench.json files:${OUT_DIR}/set=results.csv,results.gbench.json,results.json,results.md)
set_tests_properties("cli: the gbench file has Google Benchmark's fields" PROPERTIES DEPENDS "cli: every format, gbench included")
add_test(NAME "cli: a second run into the directory with --format json"
         COMMAND ${EXPECT} 0 "" -- ${GB} run --config ${CLI_DIR}/comma_case.json --device cpu ${QUICK} --format json -o ${OUT_DIR}/set)
set_tests_properties("cli: a second run into the directory with --format json" PROPERTIES DEPENDS "cli: the gbench file has Google Benchmark's fields")
add_test(NAME "cli: no file of the earlier run is left beside the new one"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/set/results.json files:${OUT_DIR}/set=results.json)
set_tests_properties("cli: no file of the earlier run is left beside the new one" PROPERTIES DEPENDS "cli: a second run into the directory with --format json")
# --format gbench alone still writes results.json: compare has something to read next time.
add_test(NAME "cli: --format gbench alone writes results.json too"
         COMMAND ${EXPECT} 0 "wrote .*results.json" -- ${GB} run --config ${CLI_DIR}/comma_case.json --device cpu ${QUICK} --format gbench -o ${OUT_DIR}/gbench-only)
add_test(NAME "cli: the gbench-only run left results.json beside results.gbench.json"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/gbench-only/results.json
                 files:${OUT_DIR}/gbench-only=results.gbench.json,results.json)
set_tests_properties("cli: the gbench-only run left results.json beside results.gbench.json" PROPERTIES DEPENDS "cli: --format gbench alone writes results.json too")

# Training data that trains nothing, and a wrong IDX magic number.
add_test(NAME "cli: tiny MNIST-format data"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/make_idx.py ${OUT_DIR}/tiny-data 10 10)
add_test(NAME "cli: a training run that trained nothing fails with the reason (1)"
         COMMAND ${EXPECT} 1 "FAILED: trained nothing: 10 training image\\(s\\), fewer than one batch of 64" --
                 ${GB} run --config ${CLI_DIR}/tiny_training.json --device cpu --data-dir ${OUT_DIR}/tiny-data -o ${OUT_DIR}/tiny)
set_tests_properties("cli: a training run that trained nothing fails with the reason (1)" PROPERTIES DEPENDS "cli: tiny MNIST-format data")
add_test(NAME "cli: with the data on the host too (1)"
         COMMAND ${EXPECT} 1 "FAILED: trained nothing: 10 training image\\(s\\), fewer than one batch of 64" --
                 ${GB} run --config ${CLI_DIR}/tiny_training.json --device cpu --data-dir ${OUT_DIR}/tiny-data --data-on-host
                 -o ${OUT_DIR}/tiny-host)
set_tests_properties("cli: with the data on the host too (1)" PROPERTIES DEPENDS "cli: tiny MNIST-format data")
add_test(NAME "cli: MNIST-format data without test images"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/make_idx.py ${OUT_DIR}/no-test-data 128 0)
add_test(NAME "cli: a training run that tested nothing fails with the reason (1)"
         COMMAND ${EXPECT} 1 "FAILED: tested nothing: the test split has no images" --
                 ${GB} run --config ${CLI_DIR}/tiny_training.json --device cpu --data-dir ${OUT_DIR}/no-test-data -o ${OUT_DIR}/no-test)
set_tests_properties("cli: a training run that tested nothing fails with the reason (1)" PROPERTIES DEPENDS "cli: MNIST-format data without test images")
add_test(NAME "cli: MNIST images with a wrong magic number"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/make_idx.py ${OUT_DIR}/bad-magic 100 10 --images-magic-dims 1)
add_test(NAME "cli: a wrong IDX magic number is reported as one (2)"
         COMMAND ${EXPECT} 2 "train-images-idx3-ubyte: wrong magic number 00 00 08 01: expected 00 00 08 03" "!trailing bytes" --
                 ${GB} run --config ${CLI_DIR}/tiny_training.json --device cpu --data-dir ${OUT_DIR}/bad-magic -o ${OUT_DIR}/bad-magic-out)
set_tests_properties("cli: a wrong IDX magic number is reported as one (2)" PROPERTIES DEPENDS "cli: MNIST images with a wrong magic number")

# SIGINT and SIGTERM (tests/cli/interrupt.sh): the finished case is written, the run marked
# interrupted, the unfinished case absent, exit 130/143, no temporary file left (the one a
# killed run left is removed too). --max-time 60 lets the long case sample a minute, as its suite
# asks: on the CPU it would be held to 3 s.
set(INTERRUPT ${CLI_DIR}/interrupt.sh ${GB})
add_test(NAME "cli: SIGINT during sampling writes the finished case (130)"
         COMMAND ${INTERRUPT} ${OUT_DIR}/sigint ${CLI_DIR}/interrupt_suite.json INT "\\[2/2\\] long" 130 --max-time 60)
add_test(NAME "cli: the interrupted run's results"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/sigint/results.json
                 interrupted:SIGINT timed:quick/eager timed:quick/static absent:long/eager absent:long/static
                 files:${OUT_DIR}/sigint=results.csv,results.json,results.md)
set_tests_properties("cli: the interrupted run's results" PROPERTIES DEPENDS "cli: SIGINT during sampling writes the finished case (130)")
add_test(NAME "cli: SIGTERM during a training run stops at the next step (143)"
         COMMAND ${INTERRUPT} ${OUT_DIR}/sigterm ${CLI_DIR}/interrupt_training.json TERM "training, variant eager" 143
                 --max-time 600)
add_test(NAME "cli: the training run cut short is absent"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/sigterm/results.json
                 interrupted:SIGTERM timed:quick/eager absent:training/eager)
set_tests_properties("cli: the training run cut short is absent" PROPERTIES DEPENDS "cli: SIGTERM during a training run stops at the next step (143)")
# The slow case's samples last 20 s (--max-time 200 gives the case room for them on the CPU): the
# first SIGTERM would wait for the sample to end, the second ends the process at once (killed by
# the signal: 143), nothing written, nothing left.
add_test(NAME "cli: a second signal ends the run at once (143)"
         COMMAND ${INTERRUPT} ${OUT_DIR}/twice ${CLI_DIR}/interrupt_slow_sample.json TERM,TERM "\\[2/2\\] slow" 143 --no-results
                 --max-time 200)

# coreutils' timeout sends its SIGTERM to the command and again to the process group: one request,
# delivered twice, which must not end the run at once. Its time is up when the long case samples
# (timeout's own SIGALRM, sent then by interrupt.sh --under-timeout, rather than after 20 s).
add_test(NAME "cli: a run stopped by timeout writes its finished cases (124)"
         COMMAND ${EXPECT} 0 "interrupted by SIGTERM: wrote the [0-9]+ finished record" "interrupt.sh: exit 124" --
                 ${INTERRUPT} ${OUT_DIR}/timeout ${CLI_DIR}/interrupt_suite.json ALRM "\\[2/2\\] long" 124 --under-timeout
                 --max-time 60)
add_test(NAME "cli: the run stopped by timeout's results"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/timeout/results.json
                 interrupted:SIGTERM timed:quick/eager absent:long/eager)
set_tests_properties("cli: the run stopped by timeout's results" PROPERTIES DEPENDS "cli: a run stopped by timeout writes its finished cases (124)")

# --repetitions N: the run repeated in N processes and merged (docs/measuring.md, repetitions).
set(REPEATED --workload gelu --device cpu --cases gelu-small --variants eager,static ${QUICK})
add_test(NAME "cli: --repetitions 2 runs two processes and merges them (0)"
         COMMAND ${EXPECT} 0 "repetition 1 of 2" "repetition 2 of 2" "gelu-small" -- ${GB} ${REPEATED} --repetitions 2 -o ${OUT_DIR}/repetitions)
add_test(NAME "cli: the merged record of two repetitions"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/repetitions/results.json
                 repetitions:gelu-small/eager=2/2 repetitions:gelu-small/static=2/2 timed:gelu-small/static interrupted:no
                 files:${OUT_DIR}/repetitions=results.csv,results.json,results.md)
set_tests_properties("cli: the merged record of two repetitions" PROPERTIES DEPENDS "cli: --repetitions 2 runs two processes and merges them (0)")
add_test(NAME "cli: results.md of a merged run says how many repetitions"
         COMMAND ${EXPECT} 0 "^Repetitions: 2, each a process of its own" -- cat ${OUT_DIR}/repetitions/results.md)
set_tests_properties("cli: results.md of a merged run says how many repetitions" PROPERTIES DEPENDS "cli: --repetitions 2 runs two processes and merges them (0)")
add_test(NAME "cli: a merged run keeps Kalibera and Jones's variance components of its records"
         COMMAND ${Python3_EXECUTABLE} -c "import json, sys; d = json.load(open(sys.argv[1])); r = [x['repetitions'] for x in d['records'] if x['status'] == 'ok']; sys.exit(0 if r and all(x['round_sd'] is not None and x['process_sd'] is not None and 'optimal_rounds' in x for x in r) else 1)"
                 ${OUT_DIR}/repetitions/results.json)
set_tests_properties("cli: a merged run keeps Kalibera and Jones's variance components of its records" PROPERTIES DEPENDS
                     "cli: --repetitions 2 runs two processes and merges them (0)")
# By default a run on the CPU is one process (--repetitions auto: several only on a GPU).
add_test(NAME "cli: a default run on the CPU is one process (0)"
         COMMAND ${EXPECT} 0 "!repetition 1 of" "gelu-small" -- ${GB} ${REPEATED} -o ${OUT_DIR}/default-processes)
add_test(NAME "cli: compare reads a merged run, judged by its processes (0)"
         COMMAND ${EXPECT} 0 "No regression" "judged by the files' processes" "process-level sd" --
                 ${GB} compare ${OUT_DIR}/repetitions/results.json ${OUT_DIR}/repetitions/results.json)
set_tests_properties("cli: compare reads a merged run, judged by its processes (0)" PROPERTIES DEPENDS "cli: --repetitions 2 runs two processes and merges them (0)")
add_test(NAME "cli: calibrate --overlap-only reads an A/A pair of merged runs (0)"
         COMMAND ${EXPECT} 0 "Interval overlap between 2 no-change runs of suite \"gelu\""
                 "median time: .*as stored in the files [0-2]/2 " "speedup: .*as stored in the files [0-1]/1 " "!Gate calibration" --
                 ${GB} calibrate --overlap-only ${OUT_DIR}/repetitions/results.json ${OUT_DIR}/repetition-died/results.json)
set_tests_properties("cli: calibrate --overlap-only reads an A/A pair of merged runs (0)" PROPERTIES DEPENDS
                     "cli: --repetitions 2 runs two processes and merges them (0);cli: a repetition that dies is recorded, the others kept (1)")
add_test(NAME "cli: calibrate --overlap-only writes no file (2)"
         COMMAND ${EXPECT} 2 "calibrate --overlap-only writes no calibration: leave -o out" --
                 ${GB} calibrate --overlap-only ${GOLDEN}/baseline.json ${GOLDEN}/current_unchanged.json -o ${OUT_DIR}/overlap.json)
add_test(NAME "cli: calibrate --overlap-only of one run (2)"
         COMMAND ${EXPECT} 2 "calibrate --overlap-only: 1 run.s. given, at least 2" -- ${GB} calibrate --overlap-only ${GOLDEN}/baseline.json)
add_test(NAME "cli: a crash names the instruction, its caller and their libraries (139)"
         COMMAND ${EXPECT} 139 "crashed by SIGSEGV. fault address 0x0" "instruction pointer 0x0" "no mapping holds it"
                 "word at the stack pointer .* 0x[0-9a-f]+" "    in [0-9a-f]+-[0-9a-f]+ r-xp .*graphbench" "the stack"
                 -- env GRAPHBENCH_TEST_CRASH=1 ${GB} --version)
add_test(NAME "cli: a repetition that dies is recorded, the others kept (1)"
         COMMAND ${EXPECT} 1 "repetition 2 of 2 was killed by signal 9" -- ${GB} ${REPEATED} --repetitions 2 --inject-repetition-failure 2 -o ${OUT_DIR}/repetition-died)
add_test(NAME "cli: the merged record says how many repetitions succeeded"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/repetition-died/results.json
                 repetitions:gelu-small/eager=1/2 repetitions:gelu-small/static=1/2)
set_tests_properties("cli: the merged record says how many repetitions succeeded" PROPERTIES DEPENDS "cli: a repetition that dies is recorded, the others kept (1)")
add_test(NAME "cli: --repetitions 0 is refused (2)"
         COMMAND ${EXPECT} 2 "--repetitions: expected auto or a whole number of runs from 1 to 1000 .*got \"0\"" -- ${GB} ${REPEATED} --repetitions 0)
add_test(NAME "cli: --repetitions 2.5 is refused (2)"
         COMMAND ${EXPECT} 2 "--repetitions: expected auto or a whole number .*got \"2.5\"" -- ${GB} ${REPEATED} --repetitions 2.5)
add_test(NAME "cli: --repetitions with --nproc is refused (2)"
         COMMAND ${EXPECT} 2 "--repetitions with --nproc: repeating a data-parallel run is not supported" -- ${GB} ${REPEATED} --repetitions 2 --nproc 2)
add_test(NAME "cli: SIGINT during a repetition writes what finished (130)"
         COMMAND ${INTERRUPT} ${OUT_DIR}/repetitions-sigint ${CLI_DIR}/interrupt_suite.json INT "\\[2/2\\] long" 130 --repetitions 2 --max-time 60)
add_test(NAME "cli: the interrupted repetitions' results"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/repetitions-sigint/results.json
                 interrupted:SIGINT repetitions:quick/eager=1/2 absent:long/eager)
set_tests_properties("cli: the interrupted repetitions' results" PROPERTIES DEPENDS "cli: SIGINT during a repetition writes what finished (130)")

include(${CMAKE_CURRENT_LIST_DIR}/PlotTests.cmake OPTIONAL)

# Data-parallel runs on the CPU: two ranks over Gloo started by --nproc (docs/distributed.md).
# Every test is bounded by a ctest timeout, so that a hang fails instead of waiting forever.
set(DDP_CPU ${CLI_DIR}/ddp_cpu.json)
if(GRAPHBENCH_DIST_BACKEND MATCHES "^gloo")
  add_test(NAME "cli: --nproc 2 on the CPU: data-parallel over Gloo"
           COMMAND ${EXPECT} 0 "starting 2 rank\\(s\\) of suite ddp-cpu on cpu \\(gloo\\)"
                   "^- ddp-small: skipped \\(CUDA graphs need a CUDA device.*\\): .*graph"
                   "^- ddp-small: skipped \\(no data-parallel form.*\\): .*reference"
                   "\\| ddp-small +\\| static +\\| +2 \\(gloo\\) +\\|"
                   "^- gelu-not-data-parallel: skipped \\(workload gelu has no data-parallel form.*\\): eager" --
                   ${CMAKE_COMMAND} -E env GLOO_GRAPHBENCH_TEST_MARK=recorded NCCL_MIN_NCHANNELS=32
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cpu --dist-timeout 60 ${QUICK} -o ${OUT_DIR}/ddp)
  # The run's Gloo variables are recorded as its backend's settings; NCCL's, which Gloo ignores, are not.
  add_test(NAME "cli: --nproc 2 results carry the data-parallel figures"
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/ddp/results.json
                   dataparallel:ddp-small/eager=2 dataparallel:ddp-small/static=2 timed:ddp-small/eager
                   settings:ddp-small/eager=GLOO_GRAPHBENCH_TEST_MARK=recorded,-NCCL_MIN_NCHANNELS
                   settings:ddp-small/static=GLOO_GRAPHBENCH_TEST_MARK=recorded,-NCCL_MIN_NCHANNELS
                   gradsync:ddp-small/eager=overlapped,float32,1 gradsync:ddp-small/static=overlapped,float32,1
                   status:ddp-small/graph=skipped status:ddp-small/reference=skipped
                   status:gelu-not-data-parallel/eager=skipped csv:${OUT_DIR}/ddp/results.csv)
  set_tests_properties("cli: --nproc 2 on the CPU: data-parallel over Gloo" PROPERTIES TIMEOUT 240)
  set_tests_properties("cli: --nproc 2 results carry the data-parallel figures"
                       PROPERTIES DEPENDS "cli: --nproc 2 on the CPU: data-parallel over Gloo")
  # bfloat16 gradients, averaged after backward in buckets of at most 1 KiB (fc1.weight, 2 KiB,
  # alone; the three others together): validated against one process in float32 within the
  # compressed tolerance (docs/distributed.md).
  add_test(NAME "cli: --nproc 2 with bfloat16 gradients after backward in small buckets"
           COMMAND ${EXPECT} 0 "\\| ddp-small +\\| static +\\| +2 \\(gloo\\) +\\|.*\\| after backward, 2 buckets of <= 0.000977 MiB, bfloat16 +\\|" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cpu --dist-timeout 60 --grad-dtype bfloat16
                   --grad-overlap off --grad-bucket-mb 0.0009765625 ${QUICK} -o ${OUT_DIR}/ddp-bf16)
  add_test(NAME "cli: bfloat16 gradients: the records say how they were averaged"
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/ddp-bf16/results.json
                   dataparallel:ddp-small/eager=2 gradsync:ddp-small/eager=after,bfloat16,2
                   gradsync:ddp-small/static=after,bfloat16,2)
  set_tests_properties("cli: --nproc 2 with bfloat16 gradients after backward in small buckets" PROPERTIES TIMEOUT 240)
  set_tests_properties("cli: bfloat16 gradients: the records say how they were averaged"
                       PROPERTIES DEPENDS "cli: --nproc 2 with bfloat16 gradients after backward in small buckets")

  # Gradient chunks of at most 1 KiB (buckets too): fc1.weight (2 KiB) computed and all-reduced in
  # two chunks of 16 rows, each a bucket of its own; validated and checked against one process.
  add_test(NAME "cli: --nproc 2 with gradient chunks: fc1.weight all-reduced in two chunks"
           COMMAND ${EXPECT} 0 "\\| ddp-small +\\| static +\\| +2 \\(gloo\\) +\\|.*\\| overlapped, 3 buckets of <= 0.000977 MiB, fc1.weight in 2 chunks +\\|" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cpu --dist-timeout 60 --grad-bucket-mb 0.0009765625
                   --grad-chunk-mb 0.0009765625 ${QUICK} -o ${OUT_DIR}/ddp-chunks)
  add_test(NAME "cli: gradient chunks: the records say which weights were chunked"
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/ddp-chunks/results.json
                   dataparallel:ddp-small/eager=2 dataparallel:ddp-small/static=2
                   gradsync:ddp-small/static=overlapped,float32,3 chunks:ddp-small/static=1024:fc1.weight=16+16
                   chunks:ddp-small/eager=1024:fc1.weight=16+16)
  set_tests_properties("cli: --nproc 2 with gradient chunks: fc1.weight all-reduced in two chunks" PROPERTIES TIMEOUT 240)
  set_tests_properties("cli: gradient chunks: the records say which weights were chunked"
                       PROPERTIES DEPENDS "cli: --nproc 2 with gradient chunks: fc1.weight all-reduced in two chunks")

  # The copy-engine all-reduce copies between GPUs: on the CPU each case fails, saying so.
  add_test(NAME "cli: --nproc 2 --grad-transport copy-engine on the CPU: each case fails naming why, the run goes on (1)"
           COMMAND ${EXPECT} 1 "ddp-small .*setting up the case failed: rank 0: grad_transport copy-engine: it copies between GPUs, and this run's tensors are on the CPU" "^- gelu-not-data-parallel: skipped \\(.*\\): eager" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cpu --dist-timeout 60 --grad-transport copy-engine
                   ${QUICK} -o ${OUT_DIR}/ddp-copy-engine)
  set_tests_properties("cli: --nproc 2 --grad-transport copy-engine on the CPU: each case fails naming why, the run goes on (1)"
                       PROPERTIES TIMEOUT 120)
  # So does the symmetric-memory all-reduce, which sums in GPU memory (in a build without it: says that).
  add_test(NAME "cli: --nproc 2 --grad-transport symmetric-memory on the CPU: each case fails naming why (1)"
           COMMAND ${EXPECT} 1 "ddp-small .*setting up the case failed: rank 0: grad_transport symmetric-memory: (it sums in GPU memory, and this run is on the cpu|this build has no symmetric memory)" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cpu --dist-timeout 60 --grad-transport symmetric-memory
                   ${QUICK} -o ${OUT_DIR}/ddp-symmetric-memory)
  set_tests_properties("cli: --nproc 2 --grad-transport symmetric-memory on the CPU: each case fails naming why (1)"
                       PROPERTIES TIMEOUT 120)

  # The tutorial's training, one epoch of the 12800-picture subset, each of two ranks a shard of
  # it (the suite's learning rate is raised: two ranks take half as many steps).
  add_test(NAME "cli: --nproc 2 trains MNIST data-parallel on the CPU, each rank a shard of the epoch"
           COMMAND ${EXPECT} 0 "^Train Epoch: 1 \\[[0-9]+/12800\\] Loss: [0-9]+\\.[0-9]{4}  \\(2 ranks, 6400 samples each"
                   "^Test set: Average loss: [0-9]+\\.[0-9]{4} \\| Accuracy: 0\\.[0-9]{3}$" --
                   ${GB} run --config ${CLI_DIR}/ddp_mnist_cpu.json --nproc 2 --device cpu --dist-timeout 120
                   --max-time 120 --data-dir ${MNIST_SUBSET} -o ${OUT_DIR}/ddp-mnist)
  set_tests_properties("cli: --nproc 2 trains MNIST data-parallel on the CPU, each rank a shard of the epoch"
                       PROPERTIES FIXTURES_REQUIRED mnist_subset)
  add_test(NAME "cli: MNIST data-parallel training learned, params identical on both ranks"
           COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/ddp-mnist/results.json
                   learned:ddp-mnist-epoch/eager dptrained:ddp-mnist-epoch/eager=2
                   learned:ddp-mnist-epoch/static dptrained:ddp-mnist-epoch/static=2
                   status:ddp-mnist-epoch/graph=skipped)
  set_tests_properties("cli: --nproc 2 trains MNIST data-parallel on the CPU, each rank a shard of the epoch" PROPERTIES TIMEOUT 600)
  set_tests_properties("cli: MNIST data-parallel training learned, params identical on both ranks"
                       PROPERTIES DEPENDS "cli: --nproc 2 trains MNIST data-parallel on the CPU, each rank a shard of the epoch")

  add_test(NAME "cli: a rank that dies ends the run with 1, the others ended too"
           COMMAND ${EXPECT} 1 "rank 1: --inject-rank-failure" "rank 1 \\(pid [0-9]+\\) was killed by signal 9"
                   "ended rank 0 \\(pid [0-9]+\\)" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cpu --dist-timeout 30 --inject-rank-failure 1
                   ${QUICK} -o ${OUT_DIR}/ddp-dies)
  set_tests_properties("cli: a rank that dies ends the run with 1, the others ended too" PROPERTIES TIMEOUT 60)

  # --max-time holds under --nproc as in one process (docs/measuring.md, "The time limit of a
  # case"): the ranks probe eager's step together, and a case whose minimum (validation, one step
  # of one process on the global batch, the timed phases) cannot fit is skipped before it starts
  # on every rank, with the --max-time that gives it that time; the run goes on and exits 0.
  add_test(NAME "cli: --nproc 2: a case that cannot fit --max-time is skipped before it starts on both ranks"
           COMMAND ${EXPECT} 0 "^  ddp-limit: skipped before it started: .*\\(on each of 2 ranks one validation run.* of each of its 2 variant\\(s\\).*more than its time limit of 2 ms allows: --max-time [0-9]+ "
                   "^- ddp-limit: skipped \\(skipped before it started: "
                   "!ddp-limit: validating" --
                   ${GB} run --config ${CLI_DIR}/ddp_limit.json --nproc 2 --device cpu --dist-timeout 60 --min-samples 3
                   --max-samples 5 --min-time 0.001 --max-time 0.002 --warmup 1 -o ${OUT_DIR}/ddp-limit)
  set_tests_properties("cli: --nproc 2: a case that cannot fit --max-time is skipped before it starts on both ranks" PROPERTIES TIMEOUT 60)
  # A case that fits: every phase (validation, the replica check, with and without all-reduce, the
  # all-reduce alone, rank 0 alone) inside its limit, said before and after.
  add_test(NAME "cli: --nproc 2: a case that fits its limit says what it will take and stays inside it"
           COMMAND ${EXPECT} 0 "^  ddp-limit: one eager step took .* on the slowest rank, so this case takes at most 4.0 s \\(its time limit\\), at the least .*"
                   "^  ddp-limit: took ([0-3]\\.[0-9] s|4\\.0 s|[0-9]+ ms) on rank 0 \\(its time limit: 4.0 s\\): probe .*, validation .*, params check .*, timed .*, without all-reduce .*, all-reduce alone .*, rank 0 alone .*$" --
                   ${GB} run --config ${CLI_DIR}/ddp_limit.json --nproc 2 --device cpu --dist-timeout 60 --max-time 4
                   -o ${OUT_DIR}/ddp-fits)
  # On a machine so loaded that the step no longer fits (152 ms a step at load 9), the rule skips the
  # case before it starts: the test is then skipped, not passed.
  set_tests_properties("cli: --nproc 2: a case that fits its limit says what it will take and stays inside it" PROPERTIES
                       TIMEOUT 60 SKIP_REGULAR_EXPRESSION "ddp-limit: skipped before it started: one eager step took")

  # A store that never answers (a torchrun agent's store of another LibTorch): LibTorch 1.13's client
  # waits without a bound, the rendezvous's watchdog ends the rank after --dist-timeout and as long
  # again (at most 5 s more).
  add_test(NAME "cli: a rendezvous store that never answers ends the rank with 1, saying what to do"
           COMMAND ${EXPECT} 1 "(no progress for [0-9]+ s \\(--dist-timeout\\): the rendezvous store did not answer|could not reach the store).*; torchrun's agent hosts this store.*TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1" --
                   ${CMAKE_COMMAND} -E env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 TORCHELASTIC_USE_AGENT_STORE=True
                   ${Python3_EXECUTABLE} ${CLI_DIR}/silent_store.py ${GB} run --config ${DDP_CPU} --device cpu --dist-timeout 1
                   -o ${OUT_DIR}/ddp-silent-store)
  set_tests_properties("cli: a rendezvous store that never answers ends the rank with 1, saying what to do" PROPERTIES TIMEOUT 60)

  add_test(NAME "cli: a rendezvous that times out ends the rank with 1"
           COMMAND ${EXPECT} 1 "rendezvous timed out after 1 s: 1 of 2 ranks joined at 127.0.0.1:29731" --
                   ${GB} run --config ${DDP_CPU} --device cpu --dist-timeout 1 -o ${OUT_DIR}/ddp-alone)
  set_tests_properties("cli: a rendezvous that times out ends the rank with 1" PROPERTIES TIMEOUT 60
                       ENVIRONMENT "RANK=0;WORLD_SIZE=2;MASTER_ADDR=127.0.0.1;MASTER_PORT=29731")
endif()

# Two torchrun nodes on this host, as on two hosts: torchrun of GRAPHBENCH_TORCH_PYTHON (Debian's
# python3-torch, the LibTorch graphbench links, in CI), one c10d rendezvous of two ranks a node and
# one static rendezvous (torchrun's agent hosts the store) of one. Skipped without Gloo or torchrun.
set(NO_GLOO "")
if(NOT GRAPHBENCH_DIST_BACKEND MATCHES "^gloo")
  set(NO_GLOO "GRAPHBENCH_NO_GLOO=this build has no Gloo backend (${GRAPHBENCH_DIST_BACKEND})")
endif()
foreach(layout "c10d;2;2+2" "static;1;1+1")
  list(GET layout 0 rdzv)
  list(GET layout 1 per_node)
  list(GET layout 2 ranks)
  math(EXPR world "2 * ${per_node}")
  set(name "cli: torchrun: two nodes of ${per_node} rank(s) over Gloo, ${rdzv} rendezvous")
  add_test(NAME "${name}"
           COMMAND ${CLI_DIR}/torchrun_two_nodes.sh ${GRAPHBENCH_TORCH_PYTHON} ${GB} ${CLI_DIR}/ddp_cpu.json
                   ${OUT_DIR}/torchrun-${rdzv} ${rdzv} ${per_node}
                   dataparallel:ddp-small/eager=${world} dataparallel:ddp-small/static=${world}
                   nodes:ddp-small/eager=2,${ranks},gloo/tcp nodes:ddp-small/static=2,${ranks},gloo/tcp
                   -- --dist-timeout 60 ${QUICK})
  set_tests_properties("${name}" PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS torchrun ENVIRONMENT "${NO_GLOO}")
endforeach()

add_test(NAME "cli: --grad-bucket-mb 0 is bad input (2)"
         COMMAND ${EXPECT} 2 "--grad-bucket-mb: expected a bucket cap in MiB, above 0 and at most 1048576 \\(e.g. 25\\), got 0" --
                 ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 2 --device cpu --grad-bucket-mb 0)
add_test(NAME "cli: --grad-chunk-mb -1 is bad input (2)"
         COMMAND ${EXPECT} 2 "--grad-chunk-mb: expected a gradient chunk cap in MiB, 0 \\(no chunks\\) or above 0 and at most 1048576 \\(e.g. 8\\), got -1" --
                 ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 2 --device cpu --grad-chunk-mb=-1)
# The SM carveout was removed (docs/distributed.md): its key is refused saying why, its option as
# any unknown one, both before a rank starts.
add_test(NAME "cli: --nproc 2 with a suite that still has grad_sm_carveout is bad input, saying why (2)"
         COMMAND ${EXPECT} 2 "ddp_sm_carveout.json: /defaults/grad_sm_carveout: removed: .*measured no gain on two H200s \\(docs/distributed.md" --
                 ${GB} run --config ${CLI_DIR}/ddp_sm_carveout.json --nproc 2 --device cpu)
add_test(NAME "cli: --grad-sm-carveout is bad input (2)"
         COMMAND ${EXPECT} 2 "The following arguments were not expected: .*--grad-sm-carveout" --
                 ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 2 --device cpu --grad-sm-carveout 16)
add_test(NAME "cli: --grad-transport nvlink is bad input (2)"
         COMMAND ${EXPECT} 2 "--grad-transport: nvlink not in \\{collective,copy-engine,symmetric-memory,auto\\}" --
                 ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 2 --device cpu --grad-transport nvlink)
add_test(NAME "cli: a suite's bad grad_chunk_mb is bad input (2), naming the file and the field"
         COMMAND ${EXPECT} 2 "bad_chunk.json: /cases/0/grad_chunk_mb: expected a gradient chunk cap in MiB, 0 \\(no chunks\\) or above 0 and at most 1048576 \\(e.g. 8\\), got -8" --
                 ${GB} run --config ${CLI_DIR}/bad_chunk.json --nproc 2 --device cpu)
add_test(NAME "cli: --nproc 0 is bad input (2)"
         COMMAND ${EXPECT} 2 "--nproc: expected a positive number of ranks, got 0" --
                 ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 0 --device cpu)
add_test(NAME "cli: --nproc under torchrun's variables is bad input (2)"
         COMMAND ${EXPECT} 2 "--nproc: this process already runs as rank 0 of 2" --
                 ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 2 --device cpu)
set_tests_properties("cli: --nproc under torchrun's variables is bad input (2)" PROPERTIES
                     ENVIRONMENT "RANK=0;WORLD_SIZE=2")
add_test(NAME "cli: --nproc with a bad suite is bad input (2), no rank started"
         COMMAND ${EXPECT} 2 "bad_shape.json: /cases/1/shape/2" -- ${GB} run --config ${CLI_DIR}/bad_shape.json --nproc 2 --device cpu)
# More ranks than GPUs: on the CPU build --device cuda is refused first; the GPU machine checks the count.
add_test(NAME "cli: --nproc with --device cuda and no GPU is bad input (2)"
         COMMAND ${EXPECT} 2 "--device cuda" -- ${GB} run --config ${CLI_DIR}/ddp_cpu.json --nproc 2 --device cuda)
set_tests_properties("cli: --nproc with --device cuda and no GPU is bad input (2)" PROPERTIES LABELS cpu-only)
if(GRAPHBENCH_WITH_CUDA AND GRAPHBENCH_DIST_BACKEND MATCHES "^nccl")
  # (a CUDA build on a machine without a GPU, CI's, refuses --device cuda first: skipped there)
  add_test(NAME "cli: --nproc with more ranks than GPUs is bad input (2)"
           COMMAND ${CLI_DIR}/with_gpus.sh 1 ${EXPECT} 2 "--nproc 64: one rank per GPU" --
                   ${GB} run --config ${DDP_CPU} --nproc 64 --device cuda)
  set_tests_properties("cli: --nproc with more ranks than GPUs is bad input (2)" PROPERTIES SKIP_RETURN_CODE 77)
  # Two ranks on two GPUs over NCCL, the graph variant capturing the all-reduce (skipped with
  # fewer than two GPUs).
  add_test(NAME "cli: --nproc 2 on two GPUs: data-parallel over NCCL, the all-reduce captured"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${EXPECT} 0 "\\| ddp-small +\\| graph +\\| +2 \\(nccl\\) +\\|" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cuda --dist-timeout 120 ${QUICK} -o ${OUT_DIR}/ddp-cuda
                   --trace ${OUT_DIR}/ddp-cuda/traces)
  set_tests_properties("cli: --nproc 2 on two GPUs: data-parallel over NCCL, the all-reduce captured"
                       PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  add_test(NAME "cli: --nproc 2 on two GPUs: figures of every variant"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/ddp-cuda/results.json
                   dataparallel:ddp-small/eager=2 dataparallel:ddp-small/static=2 dataparallel:ddp-small/graph=2
                   gradsync:ddp-small/graph=overlapped,float32,1)
  set_tests_properties("cli: --nproc 2 on two GPUs: figures of every variant" PROPERTIES SKIP_RETURN_CODE 77
                       DEPENDS "cli: --nproc 2 on two GPUs: data-parallel over NCCL, the all-reduce captured")
  # --trace: one trace per rank and variant, each with the rank's NCCL kernels.
  add_test(NAME "cli: --nproc 2 on two GPUs: --trace writes each rank's trace"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${Python3_EXECUTABLE} ${CLI_DIR}/check_rank_traces.py ${OUT_DIR}/ddp-cuda/traces
                   ddp-small.eager.rank0.trace.json ddp-small.eager.rank1.trace.json
                   ddp-small.graph.rank0.trace.json ddp-small.graph.rank1.trace.json)
  set_tests_properties("cli: --nproc 2 on two GPUs: --trace writes each rank's trace" PROPERTIES SKIP_RETURN_CODE 77
                       ENVIRONMENT "PYTHONPATH=${CMAKE_CURRENT_SOURCE_DIR}/python"
                       DEPENDS "cli: --nproc 2 on two GPUs: data-parallel over NCCL, the all-reduce captured")
  # bfloat16 gradients over NCCL, the overlapped all-reduce captured with them.
  add_test(NAME "cli: --nproc 2 on two GPUs with bfloat16 gradients"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${EXPECT} 0 "\\| ddp-small +\\| graph +\\| +2 \\(nccl\\) +\\|.*\\| overlapped, 1 bucket of <= 25 MiB, bfloat16 +\\|" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cuda --dist-timeout 120 --grad-dtype bfloat16 ${QUICK}
                   -o ${OUT_DIR}/ddp-cuda-bf16)
  set_tests_properties("cli: --nproc 2 on two GPUs with bfloat16 gradients" PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  add_test(NAME "cli: --nproc 2 on two GPUs with bfloat16 gradients: figures of every variant"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/ddp-cuda-bf16/results.json
                   dataparallel:ddp-small/graph=2 gradsync:ddp-small/graph=overlapped,bfloat16,1
                   gradsync:ddp-small/eager=overlapped,bfloat16,1)
  set_tests_properties("cli: --nproc 2 on two GPUs with bfloat16 gradients: figures of every variant" PROPERTIES
                       SKIP_RETURN_CODE 77 DEPENDS "cli: --nproc 2 on two GPUs with bfloat16 gradients")
  # The symmetric-memory all-reduce, captured with the backward pass: validated (params identical on
  # both ranks, close to one process) and timed. One rank per process, as LibTorch's symmetric
  # memory needs (its IPC channel is a socket per process).
  add_test(NAME "cli: --nproc 2 on two GPUs with the symmetric-memory all-reduce"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${EXPECT} 0 "\\| ddp-small +\\| graph +\\| +2 \\(nccl\\) +\\|.*\\| overlapped, 1 bucket of <= 25 MiB, symmetric-memory all-reduce +\\|.*\\| +yes \\(" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cuda --dist-timeout 120 --grad-transport symmetric-memory
                   ${QUICK} -o ${OUT_DIR}/ddp-cuda-symmetric)
  set_tests_properties("cli: --nproc 2 on two GPUs with the symmetric-memory all-reduce" PROPERTIES TIMEOUT 300
                       SKIP_RETURN_CODE 77)
  # "auto" takes it where each rank is a process of its own and the step has no gradient chunks
  # (with chunks, two ranks take the copy engines): the record names what ran.
  add_test(NAME "cli: --nproc 2 on two GPUs, grad_transport auto takes the symmetric-memory all-reduce"
           COMMAND ${CLI_DIR}/with_gpus.sh 2 ${EXPECT} 0 "\\| ddp-small +\\| graph +\\| +2 \\(nccl\\) +\\|.*\\| overlapped, 1 bucket of <= 25 MiB, symmetric-memory all-reduce +\\|.*\\| +yes \\(" --
                   ${GB} run --config ${DDP_CPU} --nproc 2 --device cuda --dist-timeout 120 --grad-transport auto
                   --variants eager,graph ${QUICK} -o ${OUT_DIR}/ddp-cuda-auto)
  set_tests_properties("cli: --nproc 2 on two GPUs, grad_transport auto takes the symmetric-memory all-reduce"
                       PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()

# Sweeps: --sweep runs every case at each size, points named NAME[AXIS=VALUE], the verdict's section
# in results.md (no graph on the CPU); bad sweeps stop the run before anything runs (exit 2).
add_test(NAME "cli: --sweep runs each size as a case of its own"
         COMMAND ${EXPECT} 0 "linear-dropout-small\\[batch=16\\]" "^## Sweeps" "No graph variant was measured"
                 -- ${GB} --workload linear_dropout --device cpu --cases linear-dropout-small --variants eager,static
                 --sweep batch=8,16 ${QUICK} -o ${OUT_DIR}/sweep)
add_test(NAME "cli: --sweep over an axis the workload lacks (2)"
         COMMAND ${EXPECT} 2 "--sweep: case gelu-small .* has no axis \"seq\" \\(the axes of workload gelu: batch\\)"
                 "!\\[1/" -- ${GB} --workload gelu --device cpu --sweep seq=1,2 ${QUICK} -o ${OUT_DIR}/sweep-bad)
add_test(NAME "cli: --sweep with a list that does not increase (2)"
         COMMAND ${EXPECT} 2 "--sweep \"batch=4,2\": expected AXIS=V1,V2,... .*: 2 after 4, not increasing"
                 -- ${GB} --workload gelu --device cpu --sweep batch=4,2 ${QUICK} -o ${OUT_DIR}/sweep-bad)

# Capture scopes: a suite's "sweep": {"scope": [...]} (alone and beside batch) and --sweep scope=...,
# each scope a case of its own, NAME[scope=SCOPE], its records naming NAME in scope_group; results.md's Scopes section (no graph on the CPU:
# not measured, said once, no verdict), judged again by report; bad scopes stop the run (exit 2).
add_test(NAME "cli: a suite swept over scopes runs each scope as a case of its own"
         COMMAND ${EXPECT} 0 "dropout\\[scope=attention-out\\]" "dropout-batch\\[scope=layer\\]\\[batch=8\\]" "^## Scopes"
                 "^### dropout-batch\\[batch=8\\]: graph" "Not measured at any scope: skipped: CUDA graphs need a CUDA device"
                 -- ${GB} run --config ${CLI_DIR}/scopes_cpu.json --device cpu ${QUICK} -o ${OUT_DIR}/scopes)
add_test(NAME "cli: a suite swept over scopes: records and verdicts in results.json"
         COMMAND ${Python3_EXECUTABLE} ${CLI_DIR}/check_results.py ${OUT_DIR}/scopes/results.json
                 scope:dropout[scope=layer]/graph=layer scope:dropout[scope=full]/eager=full
                 timed:dropout[scope=attention-out]/static status:dropout[scope=layer]/graph=skipped
                 scopes:dropout/graph=3 scopes:dropout-batch[batch=4]/graph=2 csv:${OUT_DIR}/scopes/results.csv
                 scopegroup:dropout[scope=layer]/graph=dropout scopegroup:dropout-batch[scope=layer][batch=8]/graph=dropout-batch[batch=8])
set_tests_properties("cli: a suite swept over scopes: records and verdicts in results.json" PROPERTIES
                     DEPENDS "cli: a suite swept over scopes runs each scope as a case of its own")
add_test(NAME "cli: report writes the Scopes section again from results.json"
         COMMAND ${EXPECT} 0 "^### dropout: graph" "\"no_verdict\": \"the full scope was not measured" --
                 sh -c "\"$1\" report \"$2\" -o \"$3\" -q && cat \"$3/results.md\" \"$3/results.json\""
                 sh ${GB} ${OUT_DIR}/scopes/results.json ${OUT_DIR}/scopes-report)
set_tests_properties("cli: report writes the Scopes section again from results.json" PROPERTIES
                     DEPENDS "cli: a suite swept over scopes runs each scope as a case of its own")
add_test(NAME "cli: --sweep scope=... beside --sweep batch=... runs every scope at every size"
         COMMAND ${EXPECT} 0 "linear-dropout-small\\[scope=layer\\]\\[batch=16\\]" "^### linear-dropout-small\\[batch=8\\]: graph"
                 -- ${GB} --workload linear_dropout --device cpu --cases linear-dropout-small --variants eager,graph
                 --sweep batch=8,16 --sweep scope=full,layer ${QUICK} -o ${OUT_DIR}/scope-sweep)
add_test(NAME "cli: --sweep with an unknown scope (2)"
         COMMAND ${EXPECT} 2 "--sweep \"scope=full,layers\": unknown capture scope \"layers\": expected one of full, layer, attention-out, modules=REGEX, auto, fwd-bwd"
                 "!\\[1/" -- ${GB} --workload gelu --device cpu --sweep scope=full,layers ${QUICK} -o ${OUT_DIR}/scope-bad)
add_test(NAME "cli: --sweep with an empty scope list (2)"
         COMMAND ${EXPECT} 2 "--sweep \"scope=\": expected scope=S1,S2,... .*: an empty list"
                 -- ${GB} --workload gelu --device cpu --sweep scope= ${QUICK} -o ${OUT_DIR}/scope-bad)
add_test(NAME "cli: --sweep scope=... twice (2)"
         COMMAND ${EXPECT} 2 "--sweep \"scope=layer\": the scopes are already swept by another --sweep"
                 -- ${GB} --workload gelu --device cpu --sweep scope=full --sweep scope=layer ${QUICK} -o ${OUT_DIR}/scope-bad)
add_test(NAME "cli: a suite with an unknown scope (2)"
         COMMAND ${EXPECT} 2 "bad_scope.json: /cases/0/sweep/scope/1: unknown capture scope \"layers\": expected one of full"
                 "!\\[1/" -- ${GB} run --config ${CLI_DIR}/bad_scope.json --device cpu ${QUICK} -o ${OUT_DIR}/scope-bad)
# The capture scopes in run --help and list: checked with their other checks (at the top).

# --trace on the CPU: a warning, the run goes on (exit 0), and no trace is written.
add_test(NAME "cli: --trace on the CPU warns and writes no trace"
         COMMAND ${EXPECT} 0 "warning: --trace .*this run is on the CPU; no traces are written" --
                 ${CMAKE_COMMAND} -E env ${GB} --workload gelu --device cpu --cases gelu-small --variants eager,static
                 --trace ${OUT_DIR}/cpu-traces ${QUICK} -o ${OUT_DIR}/cpu-trace-run)
add_test(NAME "cli: --trace on the CPU left no trace folder"
         COMMAND ${CMAKE_COMMAND} -DDIR=${OUT_DIR}/cpu-traces -P ${CLI_DIR}/expect_absent.cmake)
set_tests_properties("cli: --trace on the CPU left no trace folder" PROPERTIES DEPENDS "cli: --trace on the CPU warns and writes no trace")

# The build-time budget that .ci/run holds the build to (scripts/check-build-time.sh), on given
# figures: a ratio to the reference of the same run (scripts/measure-reference.sh) within 120% of
# docs/building.md's budget, over it (a loud warning, exit 3), the same ratio on a machine twice
# as slow (passes), the reference or the budget line missing (2). And the real docs/building.md
# has the line the script reads.
set(BUILD_TIME_DIR ${CLI_DIR}/build-time)
set(CHECK_BUILD_TIME ${PROJECT_SOURCE_DIR}/scripts/check-build-time.sh)
add_test(NAME "cli: a build at 119% of its budget passes the build-time check"
         COMMAND ${EXPECT} 0 "graphbench built in 119.0 s \\(230.5 s of CPU on 2 cores\\): 11.90 times the reference of 10.0 s, within 120% of the budget of 10" --
                 ${CHECK_BUILD_TIME} ${BUILD_TIME_DIR}/within ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: a build at 121% of its budget warns loudly (3)"
         COMMAND ${EXPECT} 3 "BUILD TIME: graphbench took 121.0 s to build .*: 12.10 times the reference of 10.0 s" "more than 120% of the 10 in docs/building.md \\(limit 12.00\\)" --
                 ${CHECK_BUILD_TIME} ${BUILD_TIME_DIR}/over ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: a build twice as long on a machine twice as slow passes the build-time check"
         COMMAND ${EXPECT} 0 "graphbench built in 238.0 s .*: 11.90 times the reference of 20.0 s, within" --
                 ${CHECK_BUILD_TIME} ${BUILD_TIME_DIR}/slower ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: a build-time check without the run's reference is bad input (2)"
         COMMAND ${EXPECT} 2 "no-reference/reference-time.txt: missing \\(scripts/measure-reference.sh writes it\\)" --
                 ${CHECK_BUILD_TIME} ${BUILD_TIME_DIR}/no-reference ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: a building.md without the budget line is bad input to the build-time check (2)"
         COMMAND ${EXPECT} 2 "no line \"Budget: the build of graphbench takes N times the reference\"" --
                 ${CHECK_BUILD_TIME} ${BUILD_TIME_DIR}/within ${CLI_DIR}/expect.sh)
add_test(NAME "cli: docs/building.md states the build-time budget"
         COMMAND ${EXPECT} 0 "^[0-9.]+$" -- sed -n "s/.*Budget: the build of graphbench takes \\([0-9.]*\\) times the reference.*/\\1/p" ${PROJECT_SOURCE_DIR}/docs/building.md)
# The README stays the front door: at most 200 lines, detail in docs/.
add_test(NAME "cli: README.md is at most 200 lines"
         COMMAND ${EXPECT} 0 "^README.md: [0-9]+ lines$" --
                 sh -c "n=$(wc -l < \"$1\"); echo \"README.md: $n lines\"; [ \"$n\" -le 200 ]" sh ${PROJECT_SOURCE_DIR}/README.md)
# The test command's budget (scripts/check-test-time.sh, given the seconds .ci/run timed and the
# run's reference).
set(CHECK_TEST_TIME ${PROJECT_SOURCE_DIR}/scripts/check-test-time.sh)
add_test(NAME "cli: a test command at 119% of its budget passes the test-time check"
         COMMAND ${EXPECT} 0 "the test command took 119 s: 11.90 times the reference of 10.0 s, within 120% of the budget of 10" --
                 ${CHECK_TEST_TIME} 119 ${BUILD_TIME_DIR}/within ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: a test command at 121% of its budget warns loudly (3)"
         COMMAND ${EXPECT} 3 "TEST TIME: the test command .* took 121 s .*: 12.10 times the reference" "more than 120% of the 10 in docs/building.md \\(limit 12.00\\)" --
                 ${CHECK_TEST_TIME} 121 ${BUILD_TIME_DIR}/within ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: the test-time check without its seconds is bad input (2)"
         COMMAND ${EXPECT} 2 "expected the test command's seconds as the first argument" --
                 ${CHECK_TEST_TIME} "" ${BUILD_TIME_DIR}/within ${BUILD_TIME_DIR}/building.md)
add_test(NAME "cli: a building.md without the test budget line is bad input to the test-time check (2)"
         COMMAND ${EXPECT} 2 "no line \"Budget: the test command takes N times the reference\"" --
                 ${CHECK_TEST_TIME} 5 ${BUILD_TIME_DIR}/within ${CLI_DIR}/expect.sh)
add_test(NAME "cli: docs/building.md states the test-time budget"
         COMMAND ${EXPECT} 0 "^[0-9.]+$" -- sed -n "s/.*Budget: the test command takes \\([0-9.]*\\) times the reference.*/\\1/p" ${PROJECT_SOURCE_DIR}/docs/building.md)

# On the CPU a case left at the default time limit (meant for GPUs) is held to a few seconds, so
# that the README's first run takes seconds; --max-time (or the suite's own limit) is kept.
add_test(NAME "cli: on the CPU a case at the default limit is timed for at most 3 s, said once"
         COMMAND ${EXPECT} 0 "^graphbench: on the CPU each case is timed for at most 3 s" --
                 ${GB} --suite gelu --device cpu --cases gelu-small --variants eager --min-samples 3 --max-samples 5 -o ${OUT_DIR}/cpu-limit)
# A case whose minimum cannot fit its limit is skipped before it runs, with what it needs and the
# flag that gives it (core/sampling/case_budget.h); the run goes on and exits 0.
add_test(NAME "cli: a case that cannot fit its limit is skipped before it starts, with the --max-time it needs"
         COMMAND ${EXPECT} 0 "^  gelu-large: skipped before it started: one eager step took .* so this case needs about .* at the least .*more than its time limit of 300 ms allows: --max-time [0-9]+ gives it that time$"
                 "!gelu-large: validating" --
                 ${GB} --workload gelu --device cpu --cases gelu-large --max-time 0.3 -o ${OUT_DIR}/too-long)
# A case under a limit says after it what it took and where, phase by phase.
add_test(NAME "cli: a case under --max-time names its phases when it ends"
         COMMAND ${EXPECT} 0 "^  gelu-small: took .* \\(its time limit: 1.0 s\\): probe .*, validation .*, timed .*, summary .*$" --
                 ${GB} --suite gelu --device cpu --cases gelu-small --max-time 1 -o ${OUT_DIR}/phase-laps)
add_test(NAME "cli: on the CPU --max-time keeps its own limit"
         COMMAND ${EXPECT} 0 "!on the CPU each case is timed" --
                 ${GB} --suite gelu --device cpu --cases gelu-small --variants eager ${QUICK} -o ${OUT_DIR}/cpu-limit-given)

# Tests that start ranks on two GPUs never run at the same time: in a ctest -j 8 on two H200s
# (commit ae9f911, results/NVIDIA-H200x2/time-ae9f911/) one of them, sharing the GPUs with the
# others, hung in its trace phase; alone it passed in 4 s.
# Every CLI test runs LibTorch's CPU work on one thread: ctest runs a test per core, and OpenMP
# threads of several processes spinning on the same cores made a CPU step 35 to 75 times slower on a
# 32-core GPU host at -j 4 with a thread per core (commit e28133c, results/NVIDIA-H200x2/check-e28133c/)
# and an MNIST epoch 7 times slower on the 2-core machine at -j 2 with two threads each (17.4 s
# against 2.6 s with one).
get_property(graphbench_cli_tests DIRECTORY PROPERTY TESTS)
foreach(test_name IN LISTS graphbench_cli_tests)
  set_property(TEST "${test_name}" APPEND PROPERTY ENVIRONMENT_MODIFICATION "OMP_NUM_THREADS=set:1")
  if(test_name MATCHES "two GPUs")
    set_tests_properties("${test_name}" PROPERTIES RESOURCE_LOCK two_gpus)
  endif()
endforeach()
