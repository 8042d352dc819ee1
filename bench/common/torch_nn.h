// The C++ frontend parts the reference variants use, in place of <torch/torch.h>, which cost each
// includer about 7 s more of compiling (docs/building.md).
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>
#include <torch/utils.h>
