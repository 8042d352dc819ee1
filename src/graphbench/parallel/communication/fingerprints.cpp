// Fingerprints of tensors and whether the ranks agree on one (see fingerprints.h).
#include "graphbench/parallel/communication/fingerprints.h"

#include <fmt/format.h>

#include <cstring>

namespace graphbench::parallel {

namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

// FNV-1a over 8-byte words (then the last bytes one by one): a large model's params (tens of
// MB) hash in milliseconds, not the tenth of a second a byte at a time takes.
void mix(std::uint64_t& hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= bytes; i += sizeof(std::uint64_t)) {
    std::uint64_t word;
    std::memcpy(&word, p + i, sizeof word);
    hash ^= word;
    hash *= kFnvPrime;
  }
  for (; i < bytes; ++i) {
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
