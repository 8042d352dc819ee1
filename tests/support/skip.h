// Skipping a test that cannot run here (no GPU, no data set), so that ctest shows it as skipped,
// never as passed. Catch2 3.x has SKIP; for Catch2 2.x the test records the skip and returns, and
// the test main (support/test_main.cpp) exits with kSkipExitCode when every test it ran skipped.
// ctest maps that exit code to "Skipped" (SKIP_RETURN_CODE, set in tests/CMakeLists.txt).
// ctest runs the LibTorch binaries' tests one source file per process; a test that may skip there
// is tagged [cuda] or [may-skip], which runs it alone, so that its skip shows (a group in which a
// test skipped fails: support/test_main.cpp).
#pragma once

#include "support/catch.h"

namespace graphbench::testing {

inline constexpr int kSkipExitCode = 4;  // Catch2 3.x's own exit code when every test skipped

// Tests skipped so far in this process (Catch2 2.x).
int& skipped_test_count();

}  // namespace graphbench::testing

#if GRAPHBENCH_CATCH2_MAJOR >= 3
#define GRAPHBENCH_SKIP(reason) SKIP(reason)
#else
// SUCCEED records one assertion, so -w NoAssertions does not fail a test that skipped.
#define GRAPHBENCH_SKIP(reason)                           \
  do {                                                    \
    ++graphbench::testing::skipped_test_count();          \
    SUCCEED("SKIPPED: " << reason);                       \
    return;                                               \
  } while (0)
#endif
