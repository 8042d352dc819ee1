// The workload catalog (bench/catalog/workloads.h), which the front checks suites against without
// LibTorch, declares exactly the workloads graphbench-run registers, each as it is registered: a
// suite the front accepts is one graphbench-run accepts, and the other way round.
#include "support/catch.h"

#include "catalog/piece_params.h"
#include "catalog/workloads.h"
#include "graphbench/engine/runner/workload_registry.h"

#include <string>
#include <vector>

namespace {

using namespace graphbench;

std::vector<std::string> catalog_param_names(const std::vector<ParamDecl>& params) {
  std::vector<std::string> out;
  for (const auto& p : params) {
    out.push_back(p.name);
    for (const auto& field : p.fields) out.push_back(p.name + "." + field.name);
  }
  return out;
}

std::vector<std::string> catalog_variant_names(const WorkloadDescriptor& d) {
  std::vector<std::string> out;
  for (const auto& v : d.variants) out.push_back(v.name());
  return out;
}

std::vector<std::string> catalog_axis_names(const WorkloadDescriptor& d) {
  std::vector<std::string> out;
  for (const auto& axis : d.sweep_axes) out.push_back(axis.name);
  return out;
}

}  // namespace

TEST_CASE("the workload catalog declares every registered workload as it is registered") {
  const std::vector<WorkloadDescriptor> registered = WorkloadRegistry::global().descriptors();
  const std::vector<WorkloadDescriptor>& catalog = workload_catalog();
  REQUIRE(catalog.size() == registered.size());
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    const WorkloadDescriptor& c = catalog[i];
    const WorkloadDescriptor& r = registered[i];
    INFO("workload " << r.name);
    CHECK(c.name == r.name);
    CHECK(c.modes == r.modes);
    CHECK(c.kinds == r.kinds);
    CHECK(catalog_variant_names(c) == catalog_variant_names(r));
    CHECK(c.dtypes == r.dtypes);
    CHECK(catalog_param_names(c.params) == catalog_param_names(r.params));
    CHECK(catalog_axis_names(c) == catalog_axis_names(r));
    CHECK(static_cast<bool>(c.check) == static_cast<bool>(r.check));
    CHECK(c.refused_params.size() == r.refused_params.size());
  }
}

TEST_CASE("a piece's ref is a model input or an earlier piece's output, each number of 1 to 6 digits") {
  const auto input = bench::parse_piece_ref("input12");
  REQUIRE(input);
  CHECK(input->input == 12);
  CHECK(input->piece == -1);
  const auto output = bench::parse_piece_ref("piece3.out007");
  REQUIRE(output);
  CHECK(output->input == -1);
  CHECK(output->piece == 3);
  CHECK(output->output == 7);
  CHECK(bench::parse_piece_ref("piece999999.out999999"));
  for (const char* bad : {"", "input", "input-1", "input1234567", "input0 ", " input0", "inputs0", "piece1",
                          "piece1.out", "piece1out0", "piece.out0", "piece1.out1234567", "piece1.out0.out1", "Piece1.out0"}) {
    INFO("ref \"" << bad << "\"");
    CHECK_FALSE(bench::parse_piece_ref(bad));
  }
}
