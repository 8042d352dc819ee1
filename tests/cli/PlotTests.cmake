# The plot script: a PNG from a golden results file, and exit code 2 for a missing file.
set(PLOT ${PROJECT_SOURCE_DIR}/scripts/plot_speedups.py)
add_test(NAME "plot: draws a PNG from results.json"
         COMMAND ${Python3_EXECUTABLE} -c
                 "import subprocess, sys; out = sys.argv[3]; subprocess.run([sys.executable, sys.argv[1], sys.argv[2], '--output', out], check=True); sig = open(out, 'rb').read(8); sys.exit(0 if sig == b'\\x89PNG\\r\\n\\x1a\\n' else 1)"
                 ${PLOT} ${CMAKE_CURRENT_SOURCE_DIR}/golden/plot_input.json ${CMAKE_CURRENT_BINARY_DIR}/plot.png)
add_test(NAME "plot: a missing results file exits with 2"
         COMMAND ${EXPECT} 2 "" -- ${Python3_EXECUTABLE} ${PLOT} ${CMAKE_CURRENT_BINARY_DIR}/no-such-results.json)

# The sweep pictures: one PNG per sweep from a golden file, exit code 2 for a file without sweeps.
set(PLOT_SWEEP ${PROJECT_SOURCE_DIR}/scripts/plot_sweep.py)
add_test(NAME "plot: draws a PNG per sweep from results.json"
         COMMAND ${Python3_EXECUTABLE} -c
                 "import subprocess, sys; out = sys.argv[3]; subprocess.run([sys.executable, sys.argv[1], sys.argv[2], '--output-dir', out], check=True); sig = open(out + '/sweep-a-graph.png', 'rb').read(8); sys.exit(0 if sig == b'\\x89PNG\\r\\n\\x1a\\n' else 1)"
                 ${PLOT_SWEEP} ${CMAKE_CURRENT_SOURCE_DIR}/golden/sweep_input.json ${CMAKE_CURRENT_BINARY_DIR}/sweep-plots)
add_test(NAME "plot: a results file without sweeps exits with 2"
         COMMAND ${EXPECT} 2 "no sweeps to plot" -- ${Python3_EXECUTABLE} ${PLOT_SWEEP} ${CMAKE_CURRENT_SOURCE_DIR}/golden/plot_input.json)

# A sweep run on the CPU has no graph variant measured: the step times of each variant are drawn.
add_test(NAME "plot: a CPU sweep's step times"
         COMMAND ${EXPECT} 0 "no graph variant was measured" "wrote .*sweep-gelu-times.png" --
                 ${Python3_EXECUTABLE} ${PLOT_SWEEP} ${OUT_DIR}/sweep-gelu/results.json)
set_tests_properties("plot: a CPU sweep's step times" PROPERTIES DEPENDS "cli: configs/sweep-gelu.json runs as shipped on the CPU")

# The trace timeline: a PNG from two small traces in the profiler's format, exit code 2 for a step
# the traces do not have.
set(TIMELINE ${PROJECT_SOURCE_DIR}/scripts/trace_timeline.py)
add_test(NAME "plot: draws one eager step above one replay from two traces"
         COMMAND ${Python3_EXECUTABLE} -c
                 "import subprocess, sys; out = sys.argv[4]; subprocess.run([sys.executable, sys.argv[1], sys.argv[2], sys.argv[3], '--output', out], check=True); sig = open(out, 'rb').read(8); sys.exit(0 if sig == b'\\x89PNG\\r\\n\\x1a\\n' else 1)"
                 ${TIMELINE} ${CMAKE_CURRENT_SOURCE_DIR}/golden/trace_eager.json ${CMAKE_CURRENT_SOURCE_DIR}/golden/trace_graph.json
                 ${CMAKE_CURRENT_BINARY_DIR}/timeline.png)
add_test(NAME "plot: a step the traces lack exits with 2"
         COMMAND ${EXPECT} 2 "no \"graphbench step 7\" range" -- ${Python3_EXECUTABLE} ${TIMELINE}
                 ${CMAKE_CURRENT_SOURCE_DIR}/golden/trace_eager.json ${CMAKE_CURRENT_SOURCE_DIR}/golden/trace_graph.json --step 7)
