#include "graphbench/parallel/runner/replicas.h"

#include "graphbench/core/errors.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

#include <cstring>
#include <map>

namespace graphbench::parallel {

void broadcast_store(Communicator& communicator, ModelStore& store, int root) {
  at::NoGradGuard no_grad;
  // Entries grouped by dtype, in name order (the same on every rank).
  std::map<at::ScalarType, std::vector<std::string>> by_dtype;
  for (const auto& name : store.names()) by_dtype[store.at(name).scalar_type()].push_back(name);
  for (const auto& [dtype, names] : by_dtype) {
    std::vector<at::Tensor> parts;
    for (const auto& name : names) parts.push_back(store.at(name).detach().reshape({-1}).to(communicator.device()));
    at::Tensor flat = at::cat(parts);
    communicator.broadcast_(flat, root);
    std::int64_t offset = 0;
    for (const auto& name : names) {
      at::Tensor& entry = store.at(name);
      entry.detach().copy_(flat.narrow(0, offset, entry.numel()).view(entry.sizes()));
      offset += entry.numel();
    }
  }
}

Shard shard_of(std::int64_t total, int rank, int world) {
  if (world < 1 || rank < 0 || rank >= world || total < 0) {
    throw EngineError(fmt::format("shard_of: rank {} of {} over {} items", rank, world, total));
  }
  const std::int64_t size = total / world;
  return Shard{size * rank, size};
}

at::Tensor shard_rows(const at::Tensor& global, int rank, int world) {
  const Shard s = shard_of(global.size(0), rank, world);
  return global.narrow(0, s.begin, s.size);
}

namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

void mix(std::uint64_t& hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= kFnvPrime;
  }
}

}  // namespace

std::uint64_t fingerprint(const std::vector<at::Tensor>& tensors) {
  std::uint64_t hash = kFnvOffset;
  for (const at::Tensor& t : tensors) {
    const at::Tensor host = t.detach().to(at::kCPU).contiguous();
    const auto dtype = static_cast<std::int64_t>(host.scalar_type());
    mix(hash, &dtype, sizeof dtype);
    for (std::int64_t d : host.sizes()) mix(hash, &d, sizeof d);
    mix(hash, host.data_ptr(), host.numel() * host.element_size());
  }
  return hash;
}

std::uint64_t fingerprint(const ModelStore& store, const std::vector<std::string>& names) {
  std::vector<at::Tensor> tensors;
  for (const auto& name : names) tensors.push_back(store.at(name));
  return fingerprint(tensors);
}

std::string Agreement::describe() const {
  return same ? fmt::format("every rank holds fingerprint {:016x}", mine)
              : fmt::format("ranks disagree: fingerprints range from {:016x} to {:016x} (this rank: {:016x})", min, max, mine);
}

Agreement agree_across_ranks(Communicator& communicator, std::uint64_t mine) {
  std::int64_t as_signed = 0;
  std::memcpy(&as_signed, &mine, sizeof mine);
  const std::int64_t low = communicator.all_reduce_ints({as_signed}, IntReduce::kMin)[0];
  const std::int64_t high = communicator.all_reduce_ints({as_signed}, IntReduce::kMax)[0];
  Agreement a;
  a.mine = mine;
  std::memcpy(&a.min, &low, sizeof low);
  std::memcpy(&a.max, &high, sizeof high);
  a.same = low == high;
  return a;
}

}  // namespace graphbench::parallel
