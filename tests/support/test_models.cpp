#include "support/test_models.h"

#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/script.h>

#include <fstream>
#include <utility>

namespace graphbench::testing {

namespace {

at::Tensor trainable(at::Tensor t) { return t.requires_grad_(true); }

// A module as torch.jit.script makes it: with the `training` flag that train() and eval() set.
torch::jit::Module module(const char* type) {
  torch::jit::Module m(type);
  m.register_attribute("training", c10::BoolType::get(), true);
  return m;
}

torch::jit::Module linear_module(const char* type, std::int64_t in, std::int64_t out) {
  torch::jit::Module m = module(type);
  m.register_parameter("weight", trainable(at::randn({out, in}) / std::sqrt(static_cast<double>(in))), false);
  m.register_parameter("bias", trainable(at::randn({out}) * 0.1), false);
  m.define("def forward(self, x):\n    return torch.linear(x, self.weight, self.bias)\n");
  return m;
}

torch::jit::Module mlp(bool dropout) {
  at::manual_seed(11);
  torch::jit::Module m = module(dropout ? "DropoutMlp" : "Mlp");
  m.register_module("fc1", linear_module("Fc1", 5, 8));
  m.register_module("fc2", linear_module("Fc2", 8, 3));
  m.register_buffer("scale", at::full({3}, 1.5));
  if (dropout) {
    m.define("def forward(self, x):\n"
             "    h = torch.dropout(torch.relu(self.fc1.forward(x)), 0.5, self.training)\n"
             "    return self.fc2.forward(h) * self.scale\n");
  } else {
    m.define("def forward(self, x):\n"
             "    return self.fc2.forward(torch.relu(self.fc1.forward(x))) * self.scale\n");
  }
  return m;
}

// The mlp's two pieces, as scripts/export_model.py --scope writes a model's: each holds the
// submodules it computes with, the same weights as the mlp's file.
std::pair<torch::jit::Module, torch::jit::Module> mlp_pieces() {
  const torch::jit::Module whole = mlp(false);
  torch::jit::Module first = module("MlpPiece0");
  first.register_module("fc1", whole.attr("fc1").toModule());
  first.define("def forward(self, x):\n    return torch.relu(self.fc1.forward(x))\n");
  torch::jit::Module second = module("MlpPiece1");
  second.register_module("fc2", whole.attr("fc2").toModule());
  second.register_buffer("scale", whole.attr("scale").toTensor());
  second.define("def forward(self, h):\n    return self.fc2.forward(h) * self.scale\n");
  return {first, second};
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

torch::jit::Module make_mlp_module() { return mlp(false); }

TestModels write_test_models(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  TestModels files;
  const auto path = [&](const char* name) { return (dir / name).string(); };

  files.mlp = path("mlp.pt");
  mlp(false).save(files.mlp);
  files.dropout = path("dropout_mlp.pt");
  mlp(true).save(files.dropout);
  const auto pieces = mlp_pieces();
  files.mlp_piece0 = path("mlp.piece0.pt");
  pieces.first.save(files.mlp_piece0);
  files.mlp_piece1 = path("mlp.piece1.pt");
  pieces.second.save(files.mlp_piece1);

  at::manual_seed(12);
  torch::jit::Module pair = module("Pair");
  pair.register_parameter("w", trainable(at::randn({6})), false);
  pair.define("def forward(self, x, y):\n"
              "    return (x * self.w + y, {'dot': (x * y).sum(1)})\n");
  files.pair = path("pair.pt");
  pair.save(files.pair);

  at::manual_seed(13);
  torch::jit::Module tokens = module("Tokens");
  tokens.register_parameter("table", trainable(at::randn({50, 8})), false);
  tokens.define("def forward(self, ids):\n    return torch.embedding(self.table, ids).mean(1)\n");
  files.tokens = path("tokens.pt");
  tokens.save(files.tokens);

  torch::jit::Module syncing = module("Syncing");
  syncing.register_parameter("w", trainable(at::ones({4})), false);
  syncing.define("def forward(self, x):\n"
                 "    if bool(x.sum() > 0.0):\n"
                 "        return x * self.w\n"
                 "    return x * self.w * 2.0\n");
  files.syncing = path("syncing.pt");
  syncing.save(files.syncing);

  torch::jit::Module no_forward = module("NoForward");
  no_forward.register_parameter("w", at::ones({2}), false);
  files.no_forward = path("no_forward.pt");
  no_forward.save(files.no_forward);

  const std::vector<char> pickled = torch::jit::pickle_save(at::ones({2}));
  files.pickle = path("checkpoint.pt");
  write_bytes(files.pickle, std::string(pickled.begin(), pickled.end()));

  files.corrupt = path("corrupt.pt");
  write_bytes(files.corrupt, "not a model\n");
  return files;
}

}  // namespace graphbench::testing
