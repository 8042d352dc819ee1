// splitmix64 (Steele, Lea, Flood 2014): a tiny generator that gives the same bits on every
// platform, unlike the standard library's distributions, so bootstrap intervals are reproducible.
#pragma once

#include <cstddef>
#include <cstdint>

namespace graphbench::stats {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform index in [0, bound): draws below 2^64 mod bound are rejected, so no modulo bias.
  std::size_t below(std::size_t bound) {
    const auto range = static_cast<std::uint64_t>(bound);
    const std::uint64_t threshold = (0 - range) % range;
    for (;;) {
      const std::uint64_t x = next();
      if (x >= threshold) return static_cast<std::size_t>(x % range);
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace graphbench::stats
