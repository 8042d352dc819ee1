// Room for the packages a run unpacks, checked before it starts, on given numbers.
#include "support/catch.h"
#include "support/error_of.h"

#include "graphbench/core/report/unpack_space.h"

#include <map>

using graphbench::UnpackNeed;

namespace {

UnpackNeed package(const std::string& file, std::uint64_t bytes, const std::string& directory = "/tmp") {
  return UnpackNeed{"AOTInductor package", file, directory, bytes, "free room there"};
}

graphbench::AvailableBytesFn free_bytes(std::map<std::string, std::uint64_t> free) {
  return [free](const std::string& directory) -> std::optional<std::uint64_t> {
    const auto found = free.find(directory);
    if (found == free.end()) return std::nullopt;
    return found->second;
  };
}

}  // namespace

TEST_CASE("unpack space: a run needs its largest package per directory, each loaded one at a time", "[report]") {
  // 33 sweep points of one package and a second, smaller package: the largest counts, once.
  std::vector<UnpackNeed> needs(33, package("big.pt2", 700));
  needs.push_back(package("small.pt2", 300));
  needs.push_back(package("elsewhere.pt2", 50, "/scratch"));
  const auto largest = graphbench::largest_unpack_needs(needs);
  REQUIRE(largest.size() == 2);
  CHECK(largest[0].file == "big.pt2");
  CHECK(largest[0].bytes == 700);
  CHECK(largest[1].file == "elsewhere.pt2");
  CHECK(largest[1].directory == "/scratch");
  CHECK(graphbench::largest_unpack_needs({}).empty());
}

TEST_CASE("unpack space: a package that does not fit is bad input naming it, the directory and the bytes", "[report]") {
  const std::vector<UnpackNeed> needs{package("small.pt2", std::uint64_t{1} << 20),
                                      package("models/big.pt2", std::uint64_t{3} << 20)};
  CHECK(graphbench::testing::input_error_of([&] {
          graphbench::check_unpack_space(needs, free_bytes({{"/tmp", std::uint64_t{2} << 20}}));
        }) ==
        "AOTInductor package models/big.pt2 is unpacked into /tmp when it loads: it needs 3.0 MiB (3145728 bytes) "
        "there, and only 2.0 MiB (2097152 bytes) is free on that file system (free room there)");
  // The sum (4 MiB) need not fit: one package is unpacked at a time.
  CHECK_NOTHROW(graphbench::check_unpack_space(needs, free_bytes({{"/tmp", std::uint64_t{3} << 20}})));
  CHECK_NOTHROW(graphbench::check_unpack_space(needs, free_bytes({})));  // the system cannot tell
  CHECK_NOTHROW(graphbench::check_unpack_space({}, free_bytes({{"/tmp", 0}})));  // nothing to unpack
}
