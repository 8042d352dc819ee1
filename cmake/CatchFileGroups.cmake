# Catch2 test cases registered with ctest one source file at a time, rather than one process per
# test case: each process of a LibTorch test binary spends about half a second loading LibTorch
# before its test runs, more than most tests take (docs/building.md, "The tests' time").
#
# graphbench_catch_file_groups(TARGET PREFIX EXCLUDE [PROPERTIES ...])
#   After TARGET is built, asks it which test cases each source file holds (-# --list-tags, the
#   file names as tags) and registers one ctest test per file, "PREFIX: FILE (N cases)", running
#   those cases but the ones EXCLUDE names (a Catch2 test spec such as "~[cuda]") and the hidden
#   ones. The excluded test cases are registered one by one (catch_discover_tests), where a test
#   that skipped shows as skipped: a group passes only if every case in it ran and passed.
#
# graphbench_catch_skipped(TARGET PREFIX SPEC REASON RUN_SPEC TIMEOUT)
#   After TARGET is built, registers each test case SPEC selects as a ctest test of its own,
#   "PREFIX:NAME", that skips saying REASON without starting TARGET (the [cuda] tests of a build
#   without CUDA, which would each load LibTorch for half a second only to skip), and each test case
#   RUN_SPEC selects as a ctest test that runs it alone.
#
# Run as a script (cmake -P) at build time, with TEST_EXECUTABLE, TEST_PREFIX, TEST_SPEC,
# TEST_PROPERTIES (a ;-list), CTEST_FILE: writes the groups into CTEST_FILE (with SKIP_REASON:
# the skipped tests instead).

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED SKIP_REASON)
  # The skipped ones, then those of RUN_SPEC as catch_discover_tests registers them (one process
  # each), which does not do here: it warns of "no tests" where RUN_SPEC selects none.
  set(content "")
  foreach(kind IN ITEMS skip run)
    set(spec "${TEST_SPEC}")
    if(kind STREQUAL "run")
      set(spec "${RUN_SPEC}")
    endif()
    execute_process(COMMAND "${TEST_EXECUTABLE}" --list-test-names-only "${spec}" OUTPUT_VARIABLE listed TIMEOUT 120)
    string(REPLACE "\n" ";" lines "${listed}")
    foreach(line IN LISTS lines)
      if(line STREQUAL "")
        continue()
      endif()
      set(name "${TEST_PREFIX}:${line}")  # as catch_discover_tests names them
      if(kind STREQUAL "skip")
        string(APPEND content "add_test([==[${name}]==] sh -c [==[echo \"$1\"; exit 4]==] sh [==[${SKIP_REASON}]==])\n")
      else()
        string(REPLACE "," "\\," escaped "${line}")
        string(APPEND content "add_test([==[${name}]==] [==[${TEST_EXECUTABLE}]==] [==[${escaped}]==])\n")
      endif()
      string(APPEND content "set_tests_properties([==[${name}]==] PROPERTIES SKIP_RETURN_CODE 4 TIMEOUT ${TIMEOUT})\n")
    endforeach()
  endforeach()
  file(WRITE "${CTEST_FILE}" "${content}")
  return()
endif()

if(CMAKE_SCRIPT_MODE_FILE)
  execute_process(COMMAND "${TEST_EXECUTABLE}" "-#" --list-tags "${TEST_SPEC}"
                  OUTPUT_VARIABLE listed ERROR_VARIABLE listed_error RESULT_VARIABLE listed_result
                  TIMEOUT 120)
  string(REPLACE "\n" ";" lines "${listed}")
  set(content "")
  set(groups 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^ *([0-9]+) +\\[#([^]]+)\\]")
      set(count ${CMAKE_MATCH_1})
      set(file ${CMAKE_MATCH_2})
      set(name "${TEST_PREFIX}: ${file} (${count} cases)")
      string(APPEND content "add_test([==[${name}]==] [==[${TEST_EXECUTABLE}]==] \"-#\" [==[[#${file}]${TEST_SPEC}]==])\n")
      string(APPEND content "set_tests_properties([==[${name}]==] PROPERTIES ${TEST_PROPERTIES})\n")
      math(EXPR groups "${groups} + 1")
    endif()
  endforeach()
  if(groups EQUAL 0)
    message(FATAL_ERROR "${TEST_EXECUTABLE} -# --list-tags \"${TEST_SPEC}\" listed no source file "
                        "(exit ${listed_result}):\n${listed}${listed_error}")
  endif()
  file(WRITE "${CTEST_FILE}" "${content}")
  return()
endif()

set(_graphbench_catch_file_groups_script ${CMAKE_CURRENT_LIST_FILE})

function(graphbench_catch_file_groups target prefix exclude)
  cmake_parse_arguments(ARG "" "" "PROPERTIES" ${ARGN})
  set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_file_groups.cmake)
  # Each property and its value as one bracket-quoted argument in the generated file.
  # GRAPHBENCH_TEST_GROUP: the test main fails a group in which some test case skipped.
  # OMP_NUM_THREADS=1: one LibTorch CPU thread per test process, as the CLI tests (tests/cli/CliTests.cmake).
  set(properties " [==[ENVIRONMENT]==] [==[GRAPHBENCH_TEST_GROUP=1;OMP_NUM_THREADS=1]==]")
  foreach(p IN LISTS ARG_PROPERTIES)
    string(APPEND properties " [==[${p}]==]")
  endforeach()
  add_custom_command(TARGET ${target} POST_BUILD
                     COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:${target}> -D "TEST_PREFIX=${prefix}"
                             -D "TEST_SPEC=${exclude}~[.]" -D "TEST_PROPERTIES=${properties}" -D CTEST_FILE=${ctest_file}
                             -P ${_graphbench_catch_file_groups_script}
                     VERBATIM)
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_file_groups_include.cmake)
  file(WRITE ${include_file}
       "if(EXISTS [==[${ctest_file}]==])\n  include([==[${ctest_file}]==])\nelse()\n"
       "  add_test([==[${prefix}: NOT_BUILT]==] [==[${target}_NOT_BUILT]==])\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()

function(graphbench_catch_skipped target prefix spec reason run_spec timeout)
  set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_skipped.cmake)
  add_custom_command(TARGET ${target} POST_BUILD
                     COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:${target}> -D "TEST_PREFIX=${prefix}"
                             -D "TEST_SPEC=${spec}" -D "SKIP_REASON=${reason}" -D "RUN_SPEC=${run_spec}"
                             -D TIMEOUT=${timeout} -D CTEST_FILE=${ctest_file}
                             -P ${_graphbench_catch_file_groups_script}
                     VERBATIM)
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_skipped_include.cmake)
  file(WRITE ${include_file} "if(EXISTS [==[${ctest_file}]==])\n  include([==[${ctest_file}]==])\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
