// The parts of LibTorch's C++ frontend that the reference variants use (torch::nn modules,
// torch::optim::SGD, NoGradGuard), in place of <torch/torch.h>: that header also brings the data
// loaders, serialization and every other module, and cost each file that included it about 7 s
// more of compiler time (mnist.cpp: 21.3 s against 13.7 s on the 2-core machine, docs/building.md).
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>
#include <torch/utils.h>
