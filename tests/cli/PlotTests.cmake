# The plot script: a PNG from a golden results file, and exit code 2 for a missing file.
set(PLOT ${PROJECT_SOURCE_DIR}/scripts/plot_speedups.py)
add_test(NAME "plot: draws a PNG from results.json"
         COMMAND ${Python3_EXECUTABLE} -c
                 "import subprocess, sys; out = sys.argv[3]; subprocess.run([sys.executable, sys.argv[1], sys.argv[2], '--output', out], check=True); sig = open(out, 'rb').read(8); sys.exit(0 if sig == b'\\x89PNG\\r\\n\\x1a\\n' else 1)"
                 ${PLOT} ${CMAKE_CURRENT_SOURCE_DIR}/golden/plot_input.json ${CMAKE_CURRENT_BINARY_DIR}/plot.png)
add_test(NAME "plot: a missing results file exits with 2"
         COMMAND ${EXPECT} 2 "" -- ${Python3_EXECUTABLE} ${PLOT} ${CMAKE_CURRENT_BINARY_DIR}/no-such-results.json)
