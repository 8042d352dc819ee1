#include "catalog/sweep_axes.h"

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

// An input is batched when it says so, else when it has two or more dimensions.
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

// A step writes its KV cache at its position: every state input's length (dimension 2) must be
// above the last value of every input marked "position": true.
std::optional<ParamProblem> position_outside_cache(const json& inputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const json& position = inputs[i];
    if (!position.value("position", false) || !position.contains("range")) continue;
    const std::int64_t last = position.at("range")[1].get<std::int64_t>() - 1;
    for (std::size_t j = 0; j < inputs.size(); ++j) {
      const json& cache = inputs[j];
      if (cache.value("role", "input") != "state" || cache.at("shape").size() < 3) continue;
      const std::int64_t length = cache.at("shape")[2].get<std::int64_t>();
      if (last >= length) {
        return ParamProblem{fmt::format("/inputs/{}/range", i),
                            fmt::format("a cache of {} positions (/inputs/{}) does not hold the step's position {} "
                                        "(its range {}): the cache's length must be above it",
                                        length, j, last, position.at("range").dump())};
      }
    }
  }
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
  if (auto problem = position_outside_cache(params.at("inputs"))) return problem;
  fill_placeholder(params, "path", "pos", value);
  return std::nullopt;
}

// The cache length: dimension 2 of every state input ([batch, kv_heads, max_seq, head_dim]); one
// that does not hold the step's position is refused here rather than failing in the model.
std::optional<ParamProblem> apply_model_cache(json& params, std::int64_t value) {
  json& inputs = params.at("inputs");
  int states = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    json& input = inputs[i];
    if (input.value("role", "input") != "state") continue;
    if (input.at("shape").size() < 3) {
      return ParamProblem{fmt::format("/inputs/{}/shape", i),
                          fmt::format("expected a state input of at least three dimensions to sweep \"cache\" over "
                                      "(its dimension 2 the cache's positions: [batch, kv_heads, max_seq, head_dim]), "
                                      "got {}",
                                      input.at("shape").dump())};
    }
    input["shape"][2] = value;
    ++states;
  }
  if (states == 0) {
    return ParamProblem{"/inputs", "no input with \"role\": \"state\" to sweep \"cache\" over (a decoding step's KV "
                                   "cache given as state, whose dimension 2 is its length)"};
  }
  if (auto problem = position_outside_cache(inputs)) return problem;
  fill_placeholder(params, "path", "cache", value);
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
  SweepAxis cache;
  cache.name = "cache";
  cache.help = "the cache length: dimension 2 of every input with \"role\": \"state\" (a KV cache), and {cache} in "
               "\"path\"";
  cache.apply = apply_model_cache;
  return {batch, position, cache};
}

}  // namespace graphbench::bench
