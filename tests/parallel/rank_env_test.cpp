// The rank environment: torchrun's variables, their defaults, and messages naming a bad variable.
#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/communication/rank_env.h"
#include "support/catch.h"

#include <map>

using graphbench::InputError;
using graphbench::parallel::read_rank_env;

namespace {

graphbench::parallel::EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::string input_error_of(const std::map<std::string, std::string>& vars) {
  try {
    read_rank_env(env_of(vars));
  } catch (const InputError& e) {
    return e.what();
  }
  return "<no InputError>";
}

}  // namespace

TEST_CASE("no RANK and no WORLD_SIZE: not a distributed run", "[dist]") {
  CHECK_FALSE(read_rank_env(env_of({{"MASTER_PORT", "1234"}})).has_value());
}

TEST_CASE("torchrun's variables are read as they are set", "[dist]") {
  auto env = read_rank_env(env_of({{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"},
                                   {"MASTER_ADDR", "node0"}, {"MASTER_PORT", "29400"}}));
  REQUIRE(env.has_value());
  CHECK(env->rank == 3);
  CHECK(env->world_size == 8);
  CHECK(env->local_rank == 1);
  CHECK(env->local_world_size == 2);
  CHECK(env->master_addr == "node0");
  CHECK(env->master_port == 29400);
  CHECK_FALSE(env->agent_store);
  CHECK(env->store_hint().empty());
  CHECK(env->describe() == "rank 3 of 8 (local rank 1), store node0:29400");
}

TEST_CASE("defaults: one host, store on 127.0.0.1:29500", "[dist]") {
  auto env = read_rank_env(env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}}));
  REQUIRE(env.has_value());
  CHECK(env->local_rank == 1);
  CHECK(env->local_world_size == 2);
  CHECK(env->master_addr == "127.0.0.1");
  CHECK(env->master_port == 29500);
}

TEST_CASE("LOCAL_RANK defaults to RANK modulo LOCAL_WORLD_SIZE", "[dist]") {
  auto env = read_rank_env(env_of({{"RANK", "5"}, {"WORLD_SIZE", "8"}, {"LOCAL_WORLD_SIZE", "4"}}));
  REQUIRE(env.has_value());
  CHECK(env->local_rank == 1);
}

TEST_CASE("torchrun's agent store: every rank a client under its prefix", "[dist]") {
  auto env = read_rank_env(env_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"TORCHELASTIC_USE_AGENT_STORE", "True"},
                                   {"TORCHELASTIC_RESTART_COUNT", "2"}}));
  REQUIRE(env.has_value());
  CHECK(env->agent_store);
  CHECK(env->store_prefix == "/worker/attempt_2");
  CHECK(env->store_hint().find("TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1") != std::string::npos);
}

TEST_CASE("a bad rank variable is named with what was expected", "[dist]") {
  CHECK(input_error_of({{"RANK", "2"}, {"WORLD_SIZE", "2"}}) ==
        "environment variable RANK: expected an integer in [0, 2) (WORLD_SIZE 2), got \"2\"");
  CHECK(input_error_of({{"RANK", "0"}, {"WORLD_SIZE", "two"}}) ==
        "environment variable WORLD_SIZE: expected an integer >= 1, got \"two\"");
  CHECK(input_error_of({{"RANK", "0"}, {"WORLD_SIZE", "0"}}) ==
        "environment variable WORLD_SIZE: expected an integer >= 1, got \"0\"");
  CHECK(input_error_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "70000"}}) ==
        "environment variable MASTER_PORT: expected an integer in [1, 65535], got \"70000\"");
  CHECK(input_error_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "2"}}) ==
        "environment variable LOCAL_RANK: expected an integer in [0, 2) (LOCAL_WORLD_SIZE 2), got \"2\"");
  CHECK(input_error_of({{"RANK", "0"}}) ==
        "environment variable RANK is set but WORLD_SIZE is not: a distributed run needs both");
}
