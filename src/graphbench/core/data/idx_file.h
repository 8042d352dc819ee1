// Reads IDX files (the MNIST format), raw or gzipped, into plain bytes. No LibTorch here: another
// layer turns the bytes into tensors.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace graphbench {

// An IDX array: its dimensions (outermost first) and its elements in row-major order.
struct IdxArray {
  std::vector<std::int64_t> dims;
  std::vector<std::uint8_t> data;
};

// Reads an IDX file of unsigned bytes (type 0x08), raw or gzipped. `expected_dims` (0: any): a file
// with another number of dimensions is refused as a wrong magic number before its data is read.
// InputError naming the path and the problem (unreadable, bad magic or type, corrupt gzip stream,
// truncated, trailing bytes).
IdxArray read_idx_file(const std::string& path, int expected_dims = 0);

// Memory for an IDX file's data: called once the header is read, with its dims; returns room for
// their product of bytes (e.g. a tensor's storage), or throws to refuse the dims.
using IdxDestination = std::function<std::uint8_t*(const std::vector<std::int64_t>& dims)>;

// Reads as read_idx_file does, with the same checks, but inflates straight into the memory that
// `destination` returns: no intermediate buffer and no copy. Data larger than `max_bytes` is
// refused (InputError "too large") before anything is allocated. Returns the dims.
std::vector<std::int64_t> read_idx_into(const std::string& path, const IdxDestination& destination,
                                        std::int64_t max_bytes, int expected_dims = 0);

}  // namespace graphbench
