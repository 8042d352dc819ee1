#include "common/sweep_axes.h"

#include <fmt/format.h>

#include <string>

namespace graphbench::bench {

using nlohmann::json;

namespace {

// Replaces every "{axis}" in the string parameter `param` (a per-size model file) by the value.
void fill_placeholder(json& params, const char* param, const std::string& axis, std::int64_t value) {
  if (!params.contains(param) || !params.at(param).is_string()) return;
  std::string text = params.at(param).get<std::string>();
  const std::string placeholder = "{" + axis + "}";
  for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at)) {
    text.replace(at, placeholder.size(), std::to_string(value));
  }
  params[param] = text;
}

// An input is batched when it says so, or by default when it has two or more dimensions (a
// decoding step's position, shape [1], is not).
bool is_batched(const json& input) {
  if (input.contains("batched")) return input.at("batched").get<bool>();
  return input.at("shape").size() >= 2;
}

std::optional<ParamProblem> apply_model_batch(json& params, std::int64_t value) {
  int batched = 0;
  for (json& input : params.at("inputs")) {
    if (!is_batched(input)) continue;
    input["shape"][0] = value;
    ++batched;
  }
  if (batched == 0) {
    return ParamProblem{"/inputs", "no batched input to sweep \"batch\" over (an input with two or more dimensions, or "
                                   "\"batched\": true)"};
  }
  fill_placeholder(params, "path", "batch", value);
  return std::nullopt;
}

std::optional<ParamProblem> apply_model_position(json& params, std::int64_t value) {
  int positions = 0;
  for (json& input : params.at("inputs")) {
    if (!input.value("position", false)) continue;
    input["range"] = json::array({value, value + 1});
    ++positions;
  }
  if (positions == 0) {
    return ParamProblem{"/inputs", "no input marked \"position\": true to sweep \"pos\" over (a decoding step's "
                                   "position in its KV cache)"};
  }
  fill_placeholder(params, "path", "pos", value);
  return std::nullopt;
}

}  // namespace

SweepAxis batch_param_axis(const char* param) {
  SweepAxis axis;
  axis.name = "batch";
  axis.help = fmt::format("the case's \"{}\"", param);
  axis.fixed_param = param;
  const std::string name = param;
  axis.apply = [name](json& params, std::int64_t value) -> std::optional<ParamProblem> {
    params[name] = value;
    return std::nullopt;
  };
  return axis;
}

SweepAxis batch_of_shape_axis(const char* param) {
  SweepAxis axis;
  axis.name = "batch";
  axis.help = fmt::format("the first dimension of \"{}\"", param);
  const std::string name = param;
  axis.apply = [name](json& params, std::int64_t value) -> std::optional<ParamProblem> {
    params.at(name)[0] = value;
    return std::nullopt;
  };
  return axis;
}

std::vector<SweepAxis> model_sweep_axes() {
  SweepAxis batch;
  batch.name = "batch";
  batch.help = "dimension 0 of every batched input, and {batch} in \"path\" (a file per size)";
  batch.apply = apply_model_batch;
  SweepAxis position;
  position.name = "pos";
  position.help = "the value of the input marked \"position\" (a decoding step's position), and {pos} in \"path\"";
  position.apply = apply_model_position;
  return {batch, position};
}

}  // namespace graphbench::bench
