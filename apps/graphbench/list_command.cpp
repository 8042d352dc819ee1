// `graphbench list`: what can be run.
#include "run_command.h"

#include "catalog/workloads.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/json/json_text.h"
#include "graphbench/core/workload/capture_scope.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace graphbench::cli {

namespace {

// Control characters (a newline, an escape sequence) shown as spaces: one line per suite.
std::string single_line(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return text;
}

std::string type_name(const ParamDecl& p) {
  const std::string list = p.length > 0 ? fmt::format("list of {} ", p.length) : "list of ";
  switch (p.type) {
    case ParamType::kPositiveInt: return "positive integer";
    case ParamType::kPositiveIntList: return list + "positive integers";
    case ParamType::kNumber: return "number";
    case ParamType::kNumberList: return list + "numbers";
    case ParamType::kString: return "string";
    case ParamType::kBool: return "boolean";
    case ParamType::kIntList: return list + "integers";
    case ParamType::kPath: return "file, relative to the suite file";
    case ParamType::kObjectList: return "list of objects";
    case ParamType::kStringList: return "list of strings";
  }
  return "?";
}

// A suite file as `list` shows it: its "description", or why the file cannot be read, a line of text in
// any case (the file goes through the same guarded reader as `run`, so a hostile file cannot crash `list`);
// and the (name, workload) of each case, as written (sweeps not expanded; none when it cannot be read).
struct SuiteListing {
  std::string description;
  std::vector<std::pair<std::string, std::string>> cases;
};

SuiteListing read_suite_listing(const std::string& path) {
  SuiteListing listing;
  try {
    const nlohmann::json doc = parse_json_text(read_text_file(path, "suite file"), path);
    if (!doc.is_object()) return listing;
    const auto description = doc.find("description");
    if (description != doc.end() && description->is_string()) listing.description = single_line(description->get<std::string>());
    const auto cases = doc.find("cases");
    if (cases == doc.end() || !cases->is_array()) return listing;
    for (const auto& c : *cases) {
      if (!c.is_object()) continue;
      const auto name = c.find("name");
      const auto workload = c.find("workload");
      if (name == c.end() || !name->is_string()) continue;
      listing.cases.emplace_back(single_line(name->get<std::string>()),
                                 workload != c.end() && workload->is_string() ? workload->get<std::string>() : "");
    }
  } catch (const InputError& e) {
    listing.description = single_line(fmt::format("(unreadable: {})", e.what()));
  }
  return listing;
}

// `items` after `prefix`, comma-separated, in lines of about `width` characters under `indent`.
std::string wrapped_list(const std::string& prefix, const std::vector<std::string>& items, int indent, std::size_t width) {
  std::string out = std::string(indent, ' ') + prefix;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (i > 0 && out.size() - line_start + 1 + item.size() > width) {
      out += "\n";
      line_start = out.size();
      out += std::string(indent + prefix.size(), ' ');
    } else if (i > 0) {
      out += ' ';
    }
    out += item;
  }
  return out + "\n";
}

// `text` with the characters a regular expression gives a meaning to escaped.
std::string regex_literal(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

void print_param(const ParamDecl& p, int indent) {
  std::string def = "default " + p.default_value.dump();
  if (p.default_value.is_null()) def = p.optional ? "optional" : "required";
  const std::string choices = p.choices.empty() ? "" : fmt::format(" ({})", fmt::join(p.choices, "|"));
  std::cout << fmt::format("  {:<{}}{} ({}{}, {}): {}\n", "", indent, p.name, type_name(p), choices, def, p.help);
  for (const auto& field : p.fields) print_param(field, indent + 2);
}

}  // namespace

std::vector<std::string> suites_with_workload(const std::vector<std::string>& dirs, const std::string& workload) {
  std::vector<std::string> found;
  for (const std::filesystem::path dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (const auto& suite : suite_names({dir.string()})) {
      std::vector<std::string> names;
      const SuiteListing listing = read_suite_listing((dir / (suite + ".json")).string());
      for (const auto& [name, of] : listing.cases) {
        if (of == workload) names.push_back(regex_literal(name));
      }
      if (names.empty()) continue;
      const std::string pattern = names.size() == 1 ? names.front() : fmt::format("({})", fmt::join(names, "|"));
      found.push_back(fmt::format("{} (graphbench --suite {} --filter '^{}$')", suite, suite, pattern));
    }
    break;
  }
  return found;
}

int list_command(const std::string& configs_dir) {
  std::cout << "Workloads:\n";
  // The names in a column as wide as the longest of them, and two spaces.
  std::size_t width = 16;
  for (const WorkloadDescriptor& d : workload_catalog()) width = std::max(width, d.name.size() + 2);
  for (const WorkloadDescriptor& d : workload_catalog()) {
    std::cout << fmt::format("  {:<{}}{}\n", d.name, width, d.summary);
    std::cout << fmt::format("  {:<{}}modes: {}; kinds: {}; dtypes: {}\n", "", width, fmt::join(d.modes, ", "),
                             fmt::join(d.kinds, ", "), fmt::join(d.dtypes, ", "));
    std::cout << fmt::format("  {:<{}}variants: {}\n", "", width, fmt::join(variant_names(d.variants), ", "));
    for (const auto& p : d.params) print_param(p, static_cast<int>(width) + 2);
    for (const auto& axis : d.sweep_axes) {
      std::cout << fmt::format("  {:<{}}sweep \"{}\": {}\n", "", width, axis.name, axis.help);
    }
  }
  std::cout << "\nVariants:\n";
  for (const Variant& v : Variant::all()) {
    std::cout << fmt::format("  {:<24}{:<13}{}\n", v.name(), to_string(v.method()), v.help());
  }

  // What each capture scope captures, for a case's "scope" and --sweep scope=...
  std::cout << "\nCapture scopes (a case's \"scope\", or \"sweep\": {\"scope\": [...]}, or --sweep scope=S1,S2,...; "
               "results.md's Scopes says which to capture; docs/scopes.md):\n";
  for (const NamedScope& scope : kNamedScopes) std::cout << fmt::format("  {:<24}{}\n", scope.name, scope.help);

  for (const std::filesystem::path dir : configs_search_dirs(configs_dir)) {
    if (!std::filesystem::is_directory(dir)) continue;
    std::cout << "\nSuites in " << dir.string()
              << " (graphbench --suite NAME [--filter REGEX], or run --config FILE), and their cases:\n";
    for (const auto& name : suite_names({dir.string()})) {
      const SuiteListing listing = read_suite_listing((dir / (name + ".json")).string());
      std::cout << fmt::format("  {:<16}{}\n", name, listing.description);
      std::vector<std::string> cases;
      for (const auto& [case_name, workload] : listing.cases) cases.push_back(case_name);
      if (!cases.empty()) std::cout << wrapped_list("cases: ", cases, 18, 100);
    }
    break;
  }
  return 0;
}

}  // namespace graphbench::cli
