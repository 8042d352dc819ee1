#include "support/catch.h"
#include "graphbench/core/record/result_record.h"
TEST_CASE("record status names") { CHECK(std::string(graphbench::to_string(graphbench::RecordStatus::kSkipped)) == "skipped"); }
