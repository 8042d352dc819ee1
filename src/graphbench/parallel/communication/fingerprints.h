// Fingerprints of tensors, and whether every rank holds the same: how replicas and orders are checked.
#pragma once

#include "graphbench/parallel/communication/communicator.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace graphbench::parallel {

// A 64-bit FNV-1a hash of the tensors' shapes, dtypes and bytes: equal only for bit-identical tensors.
std::uint64_t fingerprint(const std::vector<at::Tensor>& tensors);

// Whether every rank holds the same fingerprint (an all-reduce of its minimum and maximum).
struct Agreement {
  bool same = false;
  std::uint64_t mine = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::string describe() const;
};
Agreement agree_across_ranks(Communicator& communicator, std::uint64_t mine);

}  // namespace graphbench::parallel
