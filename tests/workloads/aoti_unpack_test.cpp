// The room an aoti case needs where LibTorch's loader unpacks its package, for the check before a
// run (core/report/unpack_space.h). The package stands in as any zip archive (a TorchScript file is
// one): the need is read from its zip directory, without the loader.
#include "workloads/model_test_util.h"

#include "graphbench/core/data/zip_sizes.h"
#include "graphbench/engine/ops/aoti_package.h"

#include <torch/script.h>

namespace {

using namespace graphbench;
using namespace graphbench::testing;

}  // namespace

TEST_CASE("aoti: a case needs its package's entries unpacked under /tmp, and nothing in a build without the loader") {
  ModelDir dir;
  const std::string file = (dir.path() / "weights.pt2").string();
  torch::jit::Module module("Weights");
  module.register_buffer("w", at::zeros({5000}));
  module.save(file);
  const CaseSpec spec =
      dir.load(R"([{"name": "m", "workload": "aoti", "path": "weights.pt2", "inputs": [{"shape": [4, 5]}]}])").cases.at(0);
  const Workload* aoti = WorkloadRegistry::global().find("aoti");
  REQUIRE(aoti != nullptr);
  const std::vector<UnpackNeed> needs = aoti->unpack_needs(spec);
  if (!ops::aoti_supported()) {
    CHECK(needs.empty());  // every case is skipped without loading
    return;
  }
  REQUIRE(needs.size() == 1);
  CHECK(needs[0].directory == "/tmp");
  CHECK(needs[0].bytes == unpacked_zip_bytes(file));
  CHECK(needs[0].bytes >= 5000 * sizeof(float));
  CHECK(needs[0].file.size() >= 11);
  CHECK(needs[0].file.substr(needs[0].file.size() - 11) == "weights.pt2");
}

TEST_CASE("aoti: a package that is not there needs no room (preflight names it)") {
  ModelDir dir;
  const CaseSpec spec =
      dir.load(R"([{"name": "m", "workload": "aoti", "path": "none.pt2", "inputs": [{"shape": [4, 5]}]}])").cases.at(0);
  CHECK(WorkloadRegistry::global().find("aoti")->unpack_needs(spec).empty());
}
