// Include this instead of Catch2's own header: it works with Catch2 2.x (single header) and 3.x.
#pragma once

// LibTorch's c10 logging defines a CHECK macro of its own (it aborts). Included first, so that
// Catch2's CHECK, defined after it, is the one the tests use whatever they include next.
#if __has_include(<c10/util/Logging.h>)
#include <c10/util/Logging.h>
#endif

#if GRAPHBENCH_CATCH2_MAJOR >= 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
namespace Catch {
// Catch2 2.x's name for the substring matcher, so tests read the same on both versions.
inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive sensitivity = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(text, sensitivity);
}
using Matchers::EndsWith;
using Matchers::Matches;
using Matchers::StartsWith;
}  // namespace Catch
#else
#include <catch2/catch.hpp>
#endif

#include <string>

namespace graphbench::testing {
// Where the golden files live (tests/golden) and the project root.
inline std::string golden_path(const std::string& name) {
  return std::string(GRAPHBENCH_TEST_DATA_DIR) + "/" + name;
}
inline std::string source_path(const std::string& name) {
  return std::string(GRAPHBENCH_SOURCE_DIR) + "/" + name;
}
}  // namespace graphbench::testing
