// Room for the results before a run, and the rescue of its records when writing fails at the end.
#include "support/catch.h"
#include "support/error_of.h"
#include "support/records.h"
#include "support/scratch_dir.h"

#include "graphbench/core/report/json_io.h"
#include "graphbench/core/report/output_space.h"
#include "graphbench/core/report/rescue_file.h"

#include <sstream>

using graphbench::OutputFormats;

TEST_CASE("output space: the lower bound counts every record and sample in every selected format", "[report]") {
  const OutputFormats json_only{true, false, false, false};
  const OutputFormats all{true, true, true, true};
  CHECK(graphbench::minimum_result_bytes(0, 10, all) == 0);
  CHECK(graphbench::minimum_result_bytes(3, 10, json_only) == 3 * graphbench::minimum_result_bytes(1, 10, json_only));
  CHECK(graphbench::minimum_result_bytes(1, 100, json_only) > graphbench::minimum_result_bytes(1, 10, json_only));
  CHECK(graphbench::minimum_result_bytes(5, 10, all) > graphbench::minimum_result_bytes(5, 10, json_only));
}

TEST_CASE("output space: too little room is bad input before anything runs, naming what is needed", "[report]") {
  CHECK(graphbench::testing::input_error_of([] {
          graphbench::check_output_space("out", std::uint64_t{1} << 20, std::uint64_t{3} << 20, 12);
        }) ==
        "output directory out: only 1.0 MiB free on its file system, and the results of 12 record(s) need at least "
        "3.0 MiB (give a directory with room with -o DIR, or run fewer cases with --cases)");
  CHECK_NOTHROW(graphbench::check_output_space("out", std::uint64_t{3} << 20, std::uint64_t{3} << 20, 12));
  CHECK_NOTHROW(graphbench::check_output_space("out", std::nullopt, std::uint64_t{3} << 20, 12));  // cannot tell
  graphbench::testing::ScratchDir dir("graphbench-space");
  const auto free = graphbench::available_bytes(dir.path().string());
  REQUIRE(free.has_value());
  CHECK(*free > 0);
  CHECK_FALSE(graphbench::available_bytes((dir.path() / "no-such-dir").string()).has_value());
}

TEST_CASE("rescue: the records go to a new file in the temporary directory, else to the fallback stream", "[report]") {
  graphbench::RunReport report;
  graphbench::ResultRecord r = graphbench::testing::benchmark_record("gelu-small", "eager");
  r.samples_us = {10.0, 11.0, 12.0};
  report.records = {r};
  graphbench::testing::ScratchDir dir("graphbench-rescue");
  std::ostringstream fallback;
  const std::string path = graphbench::rescue_results(report, "my suite/1", dir.path().string(), fallback);
  CHECK(fallback.str().empty());
  CHECK_THAT(path, Catch::StartsWith((dir.path() / "graphbench-rescued-my_suite_1-").string()) &&
                       Catch::EndsWith(".json"));
  const graphbench::RunReport back = graphbench::read_results_file(path);
  REQUIRE(back.records.size() == 1);
  CHECK(back.records[0].samples_us == r.samples_us);

  const std::string where = graphbench::rescue_results(report, "s", (dir.path() / "missing").string(), fallback);
  CHECK(where == "standard output");
  CHECK_THAT(fallback.str(), Catch::Contains("\"gelu-small\""));
}
