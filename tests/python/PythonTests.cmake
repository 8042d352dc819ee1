# The Python side (python/graphbench, docs/python.md): the package's own tests and the checks of its
# commands. Included by tests/CMakeLists.txt after cli/CliTests.cmake (GB, OUT_DIR, EXPECT and
# GRAPHBENCH_TORCH_PYTHON, the Python with PyTorch that the export tests use: skipped, exit 77,
# where it has none).
set(PY_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/python)

# A check with PyTorch's Python: SCRIPT SOURCE_DIR ${OUT_DIR}/WORK graphbench, exit 77 a skip (this
# Python has no PyTorch, or too old a one), at most TIMEOUT seconds.
function(graphbench_torch_check name script work timeout)
  add_test(NAME "${name}"
           COMMAND ${GRAPHBENCH_TORCH_PYTHON} ${PY_TESTS}/${script} ${PROJECT_SOURCE_DIR} ${OUT_DIR}/${work} ${GB})
  set_tests_properties("${name}" PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${timeout})
endfunction()

# The package's shape and its one writer (unittest, no PyTorch needed): every module imports in a
# fresh interpreter, no import circle, one BadInput, one capture(), nothing on sys.path, the
# commands thin, no shell script editing JSON; suites joined and rewritten, results files merged;
# the aa-default-summary stage's summary; the default gate simulated (numpy; skipped without).
add_test(NAME "python: the package's own tests"
         COMMAND ${Python3_EXECUTABLE} ${PY_TESTS}/run_tests.py)
set_tests_properties("python: the package's own tests" PROPERTIES TIMEOUT 300)
# The same with the Python that has PyTorch: the modules that need it import.
if(NOT GRAPHBENCH_TORCH_PYTHON STREQUAL Python3_EXECUTABLE)
  add_test(NAME "python: the package's own tests with PyTorch"
           COMMAND ${GRAPHBENCH_TORCH_PYTHON} ${PY_TESTS}/run_tests.py --needs-torch)
  set_tests_properties("python: the package's own tests with PyTorch" PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# The model scripts without PyTorch: configs/models.json is what scripts/models-suite.sh writes,
# bad arguments are refused, the baseline's side-by-side table; and the binary accepts the suite
# and, without the exported files, says how to make them.
add_test(NAME "python: models: the model scripts and configs/models.json agree"
         COMMAND ${Python3_EXECUTABLE} ${PY_TESTS}/check_model_scripts.py ${PROJECT_SOURCE_DIR} ${OUT_DIR}/model-scripts)
# The one way to export side by side (scripts/export-parallel.sh), with a stand-in for export_model.py:
# two jobs, one failing: the other's suite joined, the failure named with its log, exit code 1.
add_test(NAME "python: export-parallel.sh: jobs side by side, a failure named, the others joined"
         COMMAND ${Python3_EXECUTABLE} ${PY_TESTS}/check_export_parallel.py ${PROJECT_SOURCE_DIR} ${OUT_DIR}/export-parallel)
# Your own code (py:FILE.py:CALLABLE) without PyTorch: the source parsed, every bad input refused
# (2) naming the file and the callable, the suite written from a callable's examples (the user's
# code runs against a stand-in torch, tests/cli/own_code/stub_torch).
add_test(NAME "python: own code: py: sources parsed, bad input refused naming the file and callable, suites from the examples"
         COMMAND ${Python3_EXECUTABLE} ${PY_TESTS}/check_own_code.py ${PROJECT_SOURCE_DIR} ${OUT_DIR}/own-code)
# ... and with PyTorch, where this Python has it (GRAPHBENCH_TORCH_PYTHON; skipped without): the
# example exported as TorchScript, inference and a training step with its own loss, run on the CPU
# swept over batch.
graphbench_torch_check("python: own code: examples/conv_attention.py exported with PyTorch and run on the CPU"
                       check_own_code_torch.py own-code-torch 300)
# A decoding step whose KV cache is state (examples/tiny_decode.py), with PyTorch where this Python
# has it (skipped without): the file holds the weights only, the suite names the caches with role
# state, the step writes them in place at its position only, graphbench runs it on the CPU swept
# over batch and over the cache's length (a length short of the position refused, 2), every
# variant validated; export_model.py --dynamic-cache's manifest (dry run).
graphbench_torch_check("python: cache as state: a tiny decoding step exported with its KV cache as inputs, run on the CPU"
                       check_cache_state_torch.py cache-state-torch 300)
# A model split into pieces (export_model.py --scope), with PyTorch where this Python has it
# (skipped without): examples/conv_attention.py at layer and attention-out, examples/moe_block.py
# at auto; the cases' wiring and tags, the chains run on the CPU and compared with the whole model,
# a network in stages split for training (--mode train --scope layer) run swept over full, fwd-bwd
# and layer, every bad wiring refused naming its field, and python_baseline.py's per-scope segments.
graphbench_torch_check("python: pieces: models split by scope with PyTorch, wired, run on the CPU against the whole model"
                       check_model_pieces_torch.py model-pieces-torch 300)
# Models torch.fx cannot trace, split by torch.compile's tracer (python/graphbench/dynamo_trace.py),
# with PyTorch 2.4 or later where this Python has it (skipped without): examples/padded_tokens.py (a
# boolean mask and an item assignment) and examples/gated_layers.py (a branch on .item() in a
# submodule) exported with --scope auto, their eager pieces tagged with the reason, the gated chain
# and whole file running both branches; a branch on a tensor in the model's own forward refused naming the line;
# graphbench runs both swept over full and auto, eager and static, validated.
graphbench_torch_check("python: pieces: models torch.fx cannot trace split by torch.compile's tracer, run on the CPU"
                       check_dynamo_pieces_torch.py dynamo-pieces-torch 300)
# A model whose own forward branches on a value it read, split at its branches (python/graphbench/
# branches.py), with PyTorch where this Python has it (skipped without): examples/early_exit.py,
# examples/routed_mlp.py and an if/else exported with --scope auto, their trees of decisions and
# pieces (the routed MLP's one branch between two leaves, each arm forced by its inputs), a loop on
# the data refused, and graphbench running their cases (eager on every outcome, the routed MLP's at
# the leaf its case takes; the graphs skipped on the CPU).
graphbench_torch_check("python: branches: a model's own branches split into a tree of pieces, run on the CPU"
                       check_branches_torch.py branches-torch 300)
# What cannot be captured (python/graphbench/capture_probe.py, pieces.py's list), with PyTorch 2.4
# or later where this Python has it (skipped without): graphbench's list names torch.unique, nonzero,
# masked_select, repeat_interleave without output_size, a boolean mask, .tolist() and .item() (not
# a user's own op, which it cannot know); examples/unique_tower.py split around unique by
# --scope auto, the export saying the list judged it; examples/early_exit.py's two outcomes, and its
# --scope auto split at its branches. The [cuda] one holds the list against the
# device's answer (each op run under CUDA's sync debug mode), which names the user's own op too
# (skipped without a CUDA device).
graphbench_torch_check("python: capture: the list of ops that cannot be captured, the unique tower split around unique"
                       check_capture_probe_torch.py capture-probe-torch 300)
add_test(NAME "python: capture: [cuda] the device's answer (sync debug mode) equals the list's, the user's own op found"
         COMMAND ${GRAPHBENCH_TORCH_PYTHON} ${PY_TESTS}/check_capture_probe_torch.py ${PROJECT_SOURCE_DIR}
                 ${OUT_DIR}/capture-probe-cuda ${GB} --device)
set_tests_properties("python: capture: [cuda] the device's answer (sync debug mode) equals the list's, the user's own op found"
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# The exporter's torch.export and AOTInductor paths, with PyTorch 2.6 or later where this Python has
# it (skipped without): examples/tiny_decode.py as one AOTInductor package for batches up to 4, its
# KV cache as state, compiled for the CPU; the package against its model in PyTorch (outputs, the
# caches written at the step's position only); graphbench runs it swept over batch where its
# LibTorch has AOTInductor's loader, and skips every variant naming why where it has not.
graphbench_torch_check("python: pt2: a decoding step exported with torch.export and AOTInductor for the CPU, run swept over batch"
                       check_export_pt2_torch.py export-pt2-torch 900)
# PyTorch's DDP baseline without PyTorch: the cases it builds from configs/ddp.json, bad input
# refused (2), its table beside graphbench's committed two-GPU figures, its files whole or absent;
# ddp_table.py's table of the committed figures with the communication it ran on; and
# all_reduce_overlap.py's bad arguments refused (2).
add_test(NAME "python: ddp: python_ddp_baseline.py builds the suite's steps, refuses bad input, writes whole files, ddp_table.py names the communication, all_reduce_overlap.py checks its arguments"
         COMMAND ${Python3_EXECUTABLE} ${PY_TESTS}/check_ddp_scripts.py ${PROJECT_SOURCE_DIR} ${OUT_DIR}/ddp-scripts)
# The training step's trace (python/graphbench/train_step.py), where this Python has PyTorch 2 (the GPU
# machine; skipped on CI's Debian machine).
add_test(NAME "python: models: a channels-last training step hands convolution backwards channels-last activations"
         COMMAND ${GRAPHBENCH_TORCH_PYTHON} ${PY_TESTS}/check_train_step.py ${PROJECT_SOURCE_DIR})
set_tests_properties("python: models: a channels-last training step hands convolution backwards channels-last activations"
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# The layers of src/graphbench/ (scripts/check-layers.py): no include runs up from core to the
# engine or to data-parallel code, nor up the data-parallel layers; core includes no LibTorch.
add_test(NAME "layers: no include in src/ runs up a layer"
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/check-layers.py ${PROJECT_SOURCE_DIR})

# The tests import the package by name, as an install (pip install -e python/) finds it; here, where
# nothing is installed (the README's test command on a fresh Debian 12), PYTHONPATH names python/ (and
# the checkout's root, for examples/ and tests/python's check_support), so no test edits sys.path.
get_property(GRAPHBENCH_PY_TESTS DIRECTORY PROPERTY TESTS)
list(FILTER GRAPHBENCH_PY_TESTS INCLUDE REGEX "^(python|layers):")
set_tests_properties(${GRAPHBENCH_PY_TESTS} PROPERTIES
                     ENVIRONMENT "PYTHONPATH=${PROJECT_SOURCE_DIR}/python:${PROJECT_SOURCE_DIR}:${PY_TESTS}")
