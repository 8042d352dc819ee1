// Reads IDX files (the MNIST format), raw or gzipped, into plain bytes. No LibTorch here: another
// layer turns the bytes into tensors.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace graphbench {

// IDX element type codes (the third byte of the magic number).
inline constexpr std::uint8_t kIdxTypeUnsignedByte = 0x08;

// An IDX array: its dimensions (outermost first) and its elements in row-major order.
struct IdxArray {
  std::vector<std::int64_t> dims;
  std::vector<std::uint8_t> data;
};

// Reads an IDX file of unsigned bytes (type 0x08), raw or gzipped (zlib tells them apart).
// `expected_dims` (0: any) is the number of dimensions the caller needs, the fourth byte of the
// magic number: a file with another is refused as a wrong magic number before its data is read
// (an images file whose magic says 1 dimension would otherwise read as labels plus trailing bytes).
// Throws InputError naming the path and the problem: missing or unreadable file, bad or wrong
// magic number, unsupported type, corrupt gzip stream, truncated header or data, trailing bytes.
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
