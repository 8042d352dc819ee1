// IDX reading through zlib's gz* functions, which read gzipped and raw files alike.
#include "graphbench/data/idx_file.h"

#include "graphbench/core/errors.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>

namespace graphbench {
namespace {

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

// Reads up to `size` bytes; returns how many were read (fewer only at the end of the data).
// Throws on a read error or a corrupt gzip stream.
std::size_t read_some(gzFile file, const std::string& path, std::uint8_t* out, std::size_t size) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::size_t total = 0;
  while (total < size) {
    const auto want = static_cast<unsigned>(std::min(kChunk, size - total));
    errno = 0;
    const int got = gzread(file, out + total, want);
    int errnum = Z_OK;
    const char* message = gzerror(file, &errnum);
    if (got < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
      if (errnum == Z_ERRNO) {
        throw InputError(fmt::format("cannot read IDX file {}: {}", path, std::strerror(errno)));
      }
      // zlib's message starts with the path; keep only the reason.
      std::string reason = message;
      if (reason.rfind(path + ": ", 0) == 0) reason.erase(0, path.size() + 2);
      throw InputError(fmt::format("{}: corrupt gzip stream: {}", path, reason));
    }
    total += static_cast<std::size_t>(got);
    if (static_cast<unsigned>(got) < want) break;  // end of data
  }
  return total;
}

std::string hex_bytes(const std::uint8_t* bytes, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += fmt::format("{}{:02x}", i == 0 ? "" : " ", bytes[i]);
  }
  return out;
}

std::string join_dims(const std::vector<std::int64_t>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) out += fmt::format("{}{}", i == 0 ? "" : "x", dims[i]);
  return out;
}

const char* type_name(std::uint8_t type) {
  switch (type) {
    case 0x08: return "unsigned byte";
    case 0x09: return "signed byte";
    case 0x0B: return "short";
    case 0x0C: return "int";
    case 0x0D: return "float";
    case 0x0E: return "double";
    default: return "unknown";
  }
}

}  // namespace

IdxArray read_idx_file(const std::string& path, int expected_dims) {
  errno = 0;
  GzHandle file(gzopen(path.c_str(), "rb"));
  if (!file) {
    const char* reason = errno != 0 ? std::strerror(errno) : "out of memory";
    throw InputError(fmt::format("cannot open IDX file {}: {}", path, reason));
  }
  gzbuffer(file.get(), 1u << 17);

  std::uint8_t magic[4] = {};
  const std::size_t magic_read = read_some(file.get(), path, magic, sizeof magic);
  if (magic_read < sizeof magic) {
    throw InputError(fmt::format("{}: truncated IDX header: expected a 4-byte magic number, found {} bytes",
                                 path, magic_read));
  }
  if (magic[0] != 0 || magic[1] != 0) {
    throw InputError(fmt::format(
        "{}: not an IDX file: magic number is {}, expected 00 00 then a type byte and the number of "
        "dimensions (00 00 08 03 for MNIST images, 00 00 08 01 for labels)",
        path, hex_bytes(magic, sizeof magic)));
  }
  const std::uint8_t type = magic[2];
  if (type != kIdxTypeUnsignedByte) {
    throw InputError(fmt::format(
        "{}: unsupported IDX data type 0x{:02x} ({}): only 0x08 (unsigned byte, as in MNIST) is supported",
        path, type, type_name(type)));
  }
  const std::size_t ndims = magic[3];
  if (expected_dims > 0 && ndims != static_cast<std::size_t>(expected_dims)) {
    const std::uint8_t expected[4] = {0, 0, kIdxTypeUnsignedByte, static_cast<std::uint8_t>(expected_dims)};
    throw InputError(fmt::format("{}: wrong magic number {}: expected {} ({} dimension{} of unsigned bytes{})", path,
                                 hex_bytes(magic, sizeof magic), hex_bytes(expected, sizeof expected), expected_dims,
                                 expected_dims == 1 ? "" : "s",
                                 expected_dims == 3 ? ": images, count x rows x cols" : expected_dims == 1 ? ": labels" : ""));
  }
  if (ndims == 0) {
    throw InputError(fmt::format("{}: IDX header (magic {}) declares 0 dimensions", path,
                                 hex_bytes(magic, sizeof magic)));
  }

  std::vector<std::uint8_t> header(4 * ndims);
  const std::size_t header_read = read_some(file.get(), path, header.data(), header.size());
  if (header_read < header.size()) {
    throw InputError(fmt::format(
        "{}: truncated IDX header: expected {} bytes of dimension sizes for {} dimensions, found {}", path,
        header.size(), ndims, header_read));
  }

  IdxArray array;
  array.dims.reserve(ndims);
  std::int64_t expected = 1;
  bool overflow = false;
  for (std::size_t d = 0; d < ndims; ++d) {
    const std::uint8_t* p = header.data() + 4 * d;
    const std::int64_t size = (std::int64_t{p[0]} << 24) | (std::int64_t{p[1]} << 16) |
                              (std::int64_t{p[2]} << 8) | std::int64_t{p[3]};
    array.dims.push_back(size);
    if (size != 0 && expected > std::numeric_limits<std::int64_t>::max() / size) overflow = true;
    if (!overflow) expected *= size;
  }
  if (overflow) {
    throw InputError(fmt::format("{}: IDX dims {} are too large (more than 2^63 elements)", path,
                                 join_dims(array.dims)));
  }

  // Grow as the data arrives, so a header that lies about the size cannot make us allocate it all.
  constexpr std::int64_t kReserveLimit = std::int64_t{1} << 28;
  array.data.reserve(static_cast<std::size_t>(std::min(expected, kReserveLimit)));
  std::size_t found = 0;
  constexpr std::size_t kStep = std::size_t{1} << 24;
  while (found < static_cast<std::size_t>(expected)) {
    const std::size_t step = std::min(kStep, static_cast<std::size_t>(expected) - found);
    array.data.resize(found + step);
    const std::size_t got = read_some(file.get(), path, array.data.data() + found, step);
    found += got;
    if (got < step) break;
  }
  if (found < static_cast<std::size_t>(expected)) {
    throw InputError(fmt::format("{}: truncated IDX data: expected {} data bytes for dims {}, found {}", path,
                                 expected, join_dims(array.dims), found));
  }
  array.data.resize(found);

  std::uint8_t rest[4096];
  std::size_t trailing = 0;
  for (;;) {
    const std::size_t got = read_some(file.get(), path, rest, sizeof rest);
    trailing += got;
    if (got < sizeof rest) break;
  }
  if (trailing != 0) {
    throw InputError(fmt::format("{}: {} trailing bytes after the {} data bytes for dims {}", path, trailing,
                                 expected, join_dims(array.dims)));
  }
  return array;
}

}  // namespace graphbench
