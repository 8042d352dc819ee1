#include "graphbench/core/suite/case_filter.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

// GCC 12 at -Og warns of maybe-uninitialized members deep inside <regex>'s own templates (a
// known false positive of libstdc++'s std::function in the regex compiler); nothing of ours.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>

namespace graphbench {

void apply_case_pattern(SuiteSpec& suite, const std::string& pattern) {
  std::regex regex;
  try {
    regex = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("--filter \"{}\": not a regular expression ({})", pattern, e.what()));
  }
  std::vector<std::string> names;
  std::vector<CaseSpec> kept;
  for (const CaseSpec& c : suite.cases) {  // copied: the suite is left whole when nothing matches
    names.push_back(c.name);
    if (std::regex_search(c.name, regex)) {
      kept.push_back(c);
      continue;
    }
    std::vector<Variant> variants;
    for (const Variant& v : c.variants) {
      if (std::regex_search(c.name + "/" + v.name(), regex)) variants.push_back(v);
    }
    if (variants.empty()) continue;
    kept.push_back(c);
    kept.back().variants = std::move(variants);
  }
  if (kept.empty()) {
    throw InputError(fmt::format("--filter \"{}\": matches no case of suite {} and no case/variant (cases: {}; "
                                 "graphbench list shows each suite's cases)",
                                 pattern, suite.name, fmt::join(names, ", ")));
  }
  suite.cases = std::move(kept);
}

}  // namespace graphbench
