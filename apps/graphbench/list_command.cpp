// `graphbench list`: what can be run.
#include "run_command.h"

#include "registry.h"


#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace graphbench::cli {

namespace {

const std::map<std::string, std::string>& variant_help() {
  static const std::map<std::string, std::string> help = {
      {"eager", "the engine, ops one by one with fresh allocations (what ordinary LibTorch code does)"},
      {"static", "the engine on fixed buffers and aliases, ops one by one, no capture (allocation cost isolated)"},
      {"graph", "the engine's captured CUDA graph, replayed (inputs copied into fixed buffers)"},
      {"jit", "TorchScript compiled from source (its fuser merges elementwise ops), run eagerly"},
      {"jit+graph", "the TorchScript function captured in a CUDA graph"},
      {"reference", "plain LibTorch written as the tutorial writes it (modules, torch::optim)"},
      {"reference+graph", "the same, captured by hand with at::cuda::CUDAGraph as the tutorial does"},
  };
  return help;
}

std::string type_name(ParamType type) {
  switch (type) {
    case ParamType::kPositiveInt: return "positive integer";
    case ParamType::kPositiveIntList: return "list of positive integers";
    case ParamType::kNumber: return "number";
    case ParamType::kNumberList: return "list of numbers";
    case ParamType::kString: return "string";
    case ParamType::kBool: return "boolean";
    case ParamType::kIntList: return "list of integers";
    case ParamType::kPath: return "file, relative to the suite file";
    case ParamType::kObjectList: return "list of objects";
  }
  return "?";
}

void print_param(const ParamDecl& p, int indent) {
  std::string def = "default " + p.default_value.dump();
  if (p.default_value.is_null()) def = p.optional ? "optional" : "required";
  const std::string choices = p.choices.empty() ? "" : fmt::format(" ({})", fmt::join(p.choices, "|"));
  std::cout << fmt::format("  {:<{}}{} ({}{}, {}): {}\n", "", indent, p.name, type_name(p.type), choices, def, p.help);
  for (const auto& field : p.fields) print_param(field, indent + 2);
}

}  // namespace

int list_command(const std::string& configs_dir) {
  std::cout << "Workloads:\n";
  for (const Workload* w : all_workloads()) {
    const auto& d = w->descriptor();
    std::cout << fmt::format("  {:<16}{}\n", d.name, d.summary);
    std::cout << fmt::format("  {:<16}modes: {}; kinds: {}; dtypes: {}\n", "", fmt::join(d.modes, ", "),
                             fmt::join(d.kinds, ", "), fmt::join(d.dtypes, ", "));
    std::cout << fmt::format("  {:<16}variants: {}\n", "", fmt::join(d.variants, ", "));
    for (const auto& p : d.params) print_param(p, 18);
  }
  std::cout << "\nVariants:\n";
  for (const auto& v : all_variant_names()) std::cout << fmt::format("  {:<16}{}\n", v, variant_help().at(v));

  for (const std::filesystem::path dir : configs_search_dirs(configs_dir)) {
    if (!std::filesystem::is_directory(dir)) continue;
    std::cout << "\nSuites in " << dir.string() << " (graphbench --workload NAME, or run --config FILE):\n";
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::ifstream in(file);
      const auto doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
      std::string description = "(not valid JSON)";
      if (doc.is_object()) description = doc.value("description", std::string{});
      std::cout << fmt::format("  {:<16}{}\n", file.stem().string(), description);
    }
    break;
  }
  return 0;
}

}  // namespace graphbench::cli
