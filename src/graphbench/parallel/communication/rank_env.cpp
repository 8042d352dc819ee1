#include "graphbench/parallel/communication/rank_env.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>
#include <torch/version.h>

#include <cstdlib>

namespace graphbench::parallel {

namespace {

int parse_int(const std::string& name, const std::string& text, int min, int max, const std::string& range) {
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < min || value > max) {
    throw InputError(fmt::format("environment variable {}: expected an integer {}, got \"{}\"", name, range, text));
  }
  return static_cast<int>(value);
}

int optional_int(const EnvLookup& env, const std::string& name, int fallback, int min, int max,
                 const std::string& range) {
  const auto text = env(name);
  return text ? parse_int(name, *text, min, max, range) : fallback;
}

}  // namespace

std::string RankEnv::describe() const {
  return fmt::format("rank {} of {} (local rank {}), store {}:{}{}", rank, world_size, local_rank, master_addr,
                     master_port, agent_store ? " (torchrun's)" : "");
}

// A store server of another LibTorch may not understand this one's client: torchrun 2.11's agent
// store (libuv) fails LibTorch 1.13's requests, or never answers them.
std::string RankEnv::store_hint() const {
  if (!agent_store) return "";
  return fmt::format("; torchrun's agent hosts this store, and the torchrun of another PyTorch than graphbench's "
                     "LibTorch {} may speak another store protocol: use torchrun of PyTorch {}.{}, or set "
                     "TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 (with --rdzv-backend c10d) so that rank 0 hosts the store",
                     TORCH_VERSION, TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR);
}

EnvLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

std::optional<RankEnv> read_rank_env(const EnvLookup& env) {
  const auto rank_text = env("RANK");
  const auto world_text = env("WORLD_SIZE");
  if (!rank_text && !world_text) return std::nullopt;
  if (!rank_text || !world_text) {
    throw InputError(fmt::format("environment variable {} is set but {} is not: a distributed run needs both",
                                 rank_text ? "RANK" : "WORLD_SIZE", rank_text ? "WORLD_SIZE" : "RANK"));
  }
  RankEnv r;
  r.world_size = parse_int("WORLD_SIZE", *world_text, 1, 65536, ">= 1");
  r.rank = parse_int("RANK", *rank_text, 0, r.world_size - 1, fmt::format("in [0, {}) (WORLD_SIZE {})", r.world_size, r.world_size));
  r.local_world_size = optional_int(env, "LOCAL_WORLD_SIZE", r.world_size, 1, r.world_size,
                                    fmt::format("in [1, {}] (WORLD_SIZE)", r.world_size));
  r.local_rank = optional_int(env, "LOCAL_RANK", env("LOCAL_WORLD_SIZE") ? r.rank % r.local_world_size : r.rank, 0,
                              r.local_world_size - 1,
                              fmt::format("in [0, {}) (LOCAL_WORLD_SIZE {})", r.local_world_size, r.local_world_size));
  if (const auto addr = env("MASTER_ADDR")) {
    if (addr->empty()) throw InputError("environment variable MASTER_ADDR: expected a host name or address, got \"\"");
    r.master_addr = *addr;
  }
  r.master_port = optional_int(env, "MASTER_PORT", r.master_port, 1, 65535, "in [1, 65535]");
  if (env("GROUP_RANK")) {
    r.node_rank = optional_int(env, "GROUP_RANK", 0, 0, r.world_size - 1,
                               fmt::format("in [0, {}) (WORLD_SIZE {})", r.world_size, r.world_size));
  }
  const auto agent = env("TORCHELASTIC_USE_AGENT_STORE");
  r.agent_store = agent && (*agent == "True" || *agent == "true" || *agent == "1");
  if (r.agent_store) {
    r.store_prefix = "/worker/attempt_" + env("TORCHELASTIC_RESTART_COUNT").value_or("0");
  }
  return r;
}

}  // namespace graphbench::parallel
