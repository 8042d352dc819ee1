#include "catalog/param_decls.h"

#include <utility>

namespace graphbench::bench {

ParamDecl typed_param(const char* name, ParamType type, nlohmann::json default_value, const char* help) {
  ParamDecl p;
  p.name = name;
  p.type = type;
  p.default_value = std::move(default_value);
  p.help = help;
  return p;
}

ParamDecl optional_param(const char* name, ParamType type, const char* help) {
  ParamDecl p = typed_param(name, type, nullptr, help);
  p.optional = true;
  return p;
}

ParamDecl int_param(const char* name, std::int64_t default_value, const char* help) {
  return typed_param(name, ParamType::kPositiveInt, default_value, help);
}

ParamDecl number_param(const char* name, double default_value, double min, double max, const char* help) {
  ParamDecl p = typed_param(name, ParamType::kNumber, default_value, help);
  p.min = min;
  p.max = max;
  return p;
}

ParamDecl choice_param(const char* name, const char* default_value, std::vector<std::string> choices, const char* help) {
  ParamDecl p = typed_param(name, ParamType::kString, default_value, help);
  p.choices = std::move(choices);
  return p;
}

}  // namespace graphbench::bench
