// graphbench_test_models DIR: writes the test models (support/test_models.h) into DIR, with suite
// files that use them, for the whole-binary tests (tests/cli/CliTests.cmake):
//   models_ok.json      an inference case and a training case (exit 0 on the CPU, graphs skipped)
//   models_missing.json a good case, then one whose model file is missing (exit 2, nothing runs)
//   models_throws.json  a case whose inputs the model rejects, then a good one (exit 1, both run)
#include "support/test_models.h"

#include <fstream>
#include <iostream>

namespace {

void write_suite(const std::filesystem::path& file, const std::string& cases) {
  std::ofstream(file) << R"({"suite": ")" << file.stem().string() << R"(", "cases": )" << cases << "}\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: graphbench_test_models DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  graphbench::testing::write_test_models(dir);
  const std::string mlp = R"({"name": "mlp", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 5]}]})";
  write_suite(dir / "models_ok.json",
              "[" + mlp + R"(, {"name": "mlp-train", "workload": "torchscript", "mode": "train", "path": "mlp.pt",
                 "inputs": [{"shape": [8, 5]}], "loss": "cross_entropy", "optimizer": "sgd", "momentum": 0.9}])");
  write_suite(dir / "models_missing.json",
              "[" + mlp + R"(, {"name": "missing", "workload": "torchscript", "path": "missing.pt",
                 "inputs": [{"shape": [4, 5]}]}])");
  write_suite(dir / "models_throws.json",
              R"([{"name": "wrong-shape", "workload": "torchscript", "path": "mlp.pt", "inputs": [{"shape": [4, 7]}]}, )" +
                  mlp + "]");
  std::cout << "wrote test models and suites to " << dir.string() << "\n";
  return 0;
}
