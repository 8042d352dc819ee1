// The LibTorch MNIST example's network as the tutorial writes it: a torch::nn module (the reference
// variant; mnist/mnist_model.h has the same network as engine programs).
#pragma once

#include "graphbench/engine/exec/model_store.h"

#include "common/torch_nn.h"

namespace graphbench::mnist {

// conv1 5x5 (1->10), max-pool 2, relu; conv2 5x5 (10->20), Dropout2d(0.5), max-pool 2, relu;
// flatten 320; fc1 (320->50), relu, dropout 0.5; fc2 (50->10); log_softmax.
struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Dropout2d conv2_drop;
  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
};
TORCH_MODULE(Net);

// Copies the store's params into the module's (same names).
void load_params(Net& net, const ModelStore& store);

}  // namespace graphbench::mnist
