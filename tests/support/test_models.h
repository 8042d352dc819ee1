// Small TorchScript models built in C++ (torch::jit::Module, register_parameter, define) and saved,
// so that the model workloads are tested without Python; plus files that are not models.
#pragma once

#include <filesystem>
#include <string>

// Declared only: the writer (support/write_test_models_main.cpp) needs none of TorchScript, whose
// headers cost a file about 5 s of compiler time; what uses a module includes <torch/script.h>.
namespace torch::jit {
struct Module;
}

namespace graphbench::testing {

struct TestModels {
  std::string mlp;         // forward(x [N, 5]) -> [N, 3]: fc1 (5->8), relu, fc2 (8->3), times a buffer
  std::string pair;        // forward(x, y [4, 6]) -> (x * w + y, {"dot": (x * y).sum(1)})
  std::string tokens;      // forward(ids int64 [N, L] in [0, 50)) -> embedding mean [N, 8]
  std::string dropout;     // the mlp with dropout(p=0.5) after fc1 in training mode
  std::string mlp_piece0;  // the mlp split in two (its weights): forward(x [N, 5]) -> relu(fc1(x)) [N, 8]
  std::string mlp_piece1;  // ... and forward(h [N, 8]) -> fc2(h) * scale [N, 3]
  std::string syncing;     // forward(x) branches on bool(x.sum() > 0): synchronises on a GPU
  std::string no_forward;  // TorchScript, but no forward method
  std::string pickle;      // a torch.save()-style pickle of a tensor: a zip, but not TorchScript
  std::string corrupt;     // a text file
};

// Writes every file into `dir` (created if needed). The weights are drawn with a fixed seed.
TestModels write_test_models(const std::filesystem::path& dir);

// The mlp, built again (the same weights as the file).
torch::jit::Module make_mlp_module();

}  // namespace graphbench::testing
