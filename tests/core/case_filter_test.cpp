// --filter REGEX (src/graphbench/core/suite/case_filter): which cases and variants a pattern keeps, and
// the errors of a pattern that keeps nothing or is not a regular expression.
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/suite/case_filter.h"

namespace {

using graphbench::apply_case_pattern;
using graphbench::CaseSpec;
using graphbench::SuiteSpec;
using graphbench::Variant;
using graphbench::testing::input_error_of;

SuiteSpec suite_of(const std::vector<std::string>& cases) {
  SuiteSpec suite;
  suite.name = "blog";
  for (const auto& name : cases) {
    CaseSpec c;
    c.name = name;
    c.variants = {Variant::named("eager"), Variant::named("graph"), Variant::named("graph:replay")};
    suite.cases.push_back(c);
  }
  return suite;
}

std::vector<std::string> case_names(const SuiteSpec& suite) {
  std::vector<std::string> names;
  for (const auto& c : suite.cases) names.push_back(c.name);
  return names;
}

std::vector<std::string> variant_names(const CaseSpec& c) {
  std::vector<std::string> names;
  for (const auto& v : c.variants) names.push_back(v.name());
  return names;
}

}  // namespace

TEST_CASE("case filter: a pattern found in a case name keeps the whole case", "[filter]") {
  SuiteSpec suite = suite_of({"gelu-small", "gelu-large", "one-kernel"});
  apply_case_pattern(suite, "large$|kernel");
  CHECK(case_names(suite) == std::vector<std::string>{"gelu-large", "one-kernel"});
  CHECK(variant_names(suite.cases[0]) == std::vector<std::string>{"eager", "graph", "graph:replay"});
}

TEST_CASE("case filter: a pattern of case/variant keeps only the variants it matches", "[filter]") {
  SuiteSpec suite = suite_of({"gelu-small", "gelu-large"});
  apply_case_pattern(suite, "small/graph$");
  REQUIRE(case_names(suite) == std::vector<std::string>{"gelu-small"});
  CHECK(variant_names(suite.cases[0]) == std::vector<std::string>{"graph"});

  SuiteSpec every = suite_of({"gelu-small", "gelu-large"});
  apply_case_pattern(every, "/eager$");
  CHECK(case_names(every) == std::vector<std::string>{"gelu-small", "gelu-large"});
  CHECK(variant_names(every.cases[1]) == std::vector<std::string>{"eager"});
}

TEST_CASE("case filter: a pattern that matches nothing, or is no regular expression, is bad input", "[filter]") {
  SuiteSpec suite = suite_of({"gelu-small", "gelu-large"});
  CHECK(input_error_of([&] { apply_case_pattern(suite, "resnet"); }) ==
        "--filter \"resnet\": matches no case of suite blog and no case/variant (cases: gelu-small, gelu-large; "
        "graphbench list shows each suite's cases)");
  CHECK(case_names(suite) == std::vector<std::string>{"gelu-small", "gelu-large"});  // left as it was
  CHECK_THROWS_WITH(apply_case_pattern(suite, "gelu-("), Catch::Contains("--filter \"gelu-(\": not a regular expression"));
}
