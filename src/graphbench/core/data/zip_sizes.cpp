#include "graphbench/core/data/zip_sizes.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <vector>

namespace graphbench {

namespace {

// Record signatures and fixed sizes of the zip format (PKWARE APPNOTE 4.3.12 to 4.3.16).
constexpr std::uint32_t kEndSignature = 0x06054b50;
constexpr std::uint32_t kZip64EndSignature = 0x06064b50;
constexpr std::uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr std::uint32_t kEntrySignature = 0x02014b50;
constexpr std::size_t kEndBytes = 22;
constexpr std::size_t kZip64LocatorBytes = 20;
constexpr std::size_t kZip64EndBytes = 56;
constexpr std::size_t kEntryBytes = 46;
constexpr std::size_t kMaxCommentBytes = 0xffff;
constexpr std::uint16_t kZip64ExtraId = 0x0001;

std::uint64_t le(const std::vector<char>& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
  return v;
}

class ZipFile {
 public:
  explicit ZipFile(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw InputError(fmt::format("{}: cannot open it to read its zip directory", path));
    in_.seekg(0, std::ios::end);
    size_ = static_cast<std::uint64_t>(in_.tellg());
  }

  std::uint64_t size() const { return size_; }

  std::vector<char> read(std::uint64_t at, std::uint64_t bytes) {
    if (at > size_ || bytes > size_ - at) fail("the zip directory points past the end of the file");
    std::vector<char> b(static_cast<std::size_t>(bytes));
    in_.seekg(static_cast<std::streamoff>(at));
    in_.read(b.data(), static_cast<std::streamsize>(bytes));
    if (!in_) fail("cannot read it");
    return b;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(fmt::format("{}: not a readable zip archive: {}", path_, why));
  }

 private:
  std::string path_;
  std::ifstream in_;
  std::uint64_t size_ = 0;
};

struct Directory {
  std::uint64_t entries = 0;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

// The central directory's place, from the end record (or its zip64 one, where a field overflows).
Directory find_directory(ZipFile& zip) {
  const std::uint64_t tail_bytes = std::min<std::uint64_t>(zip.size(), kEndBytes + kMaxCommentBytes);
  const std::uint64_t tail_at = zip.size() - tail_bytes;
  const std::vector<char> tail = zip.read(tail_at, tail_bytes);
  if (tail.size() < kEndBytes) zip.fail("shorter than an end-of-central-directory record");
  for (std::size_t at = tail.size() - kEndBytes + 1; at-- > 0;) {
    if (le(tail, at, 4) != kEndSignature) continue;
    Directory d{le(tail, at + 10, 2), le(tail, at + 16, 4), le(tail, at + 12, 4)};
    const bool zip64 = d.entries == 0xffff || d.offset == 0xffffffff || d.bytes == 0xffffffff;
    if (!zip64) return d;
    const std::uint64_t end_at = tail_at + at;
    if (end_at < kZip64LocatorBytes) zip.fail("no zip64 end-of-central-directory locator");
    const std::vector<char> locator = zip.read(end_at - kZip64LocatorBytes, kZip64LocatorBytes);
    if (le(locator, 0, 4) != kZip64LocatorSignature) zip.fail("no zip64 end-of-central-directory locator");
    const std::vector<char> end64 = zip.read(le(locator, 8, 8), kZip64EndBytes);
    if (le(end64, 0, 4) != kZip64EndSignature) zip.fail("no zip64 end-of-central-directory record");
    return Directory{le(end64, 32, 8), le(end64, 48, 8), le(end64, 40, 8)};
  }
  zip.fail("no end-of-central-directory record");
}

// An entry's uncompressed size: its header's, or its zip64 extra field's where the header's
// overflows (the field holds the overflowed values in the order uncompressed, compressed, ...).
std::uint64_t uncompressed_size(ZipFile& zip, const std::vector<char>& dir, std::size_t at, std::size_t extra_at,
                                std::size_t extra_bytes) {
  const std::uint64_t size = le(dir, at + 24, 4);
  if (size != 0xffffffff) return size;
  for (std::size_t p = extra_at; p + 4 <= extra_at + extra_bytes;) {
    const std::uint64_t id = le(dir, p, 2);
    const std::size_t bytes = static_cast<std::size_t>(le(dir, p + 2, 2));
    if (id == kZip64ExtraId && bytes >= 8 && p + 4 + 8 <= extra_at + extra_bytes) return le(dir, p + 4, 8);
    p += 4 + bytes;
  }
  zip.fail("an entry's size overflows and it has no zip64 size");
}

}  // namespace

std::uint64_t unpacked_zip_bytes(const std::string& path) {
  ZipFile zip(path);
  const Directory d = find_directory(zip);
  const std::vector<char> dir = zip.read(d.offset, d.bytes);
  std::uint64_t total = 0;
  std::size_t at = 0;
  for (std::uint64_t i = 0; i < d.entries; ++i) {
    if (at + kEntryBytes > dir.size() || le(dir, at, 4) != kEntrySignature) {
      zip.fail(fmt::format("central directory entry {} of {} is cut short or malformed", i + 1, d.entries));
    }
    const std::size_t name_bytes = static_cast<std::size_t>(le(dir, at + 28, 2));
    const std::size_t extra_bytes = static_cast<std::size_t>(le(dir, at + 30, 2));
    const std::size_t comment_bytes = static_cast<std::size_t>(le(dir, at + 32, 2));
    const std::size_t next = at + kEntryBytes + name_bytes + extra_bytes + comment_bytes;
    if (next > dir.size()) zip.fail(fmt::format("central directory entry {} of {} is cut short", i + 1, d.entries));
    total += uncompressed_size(zip, dir, at, at + kEntryBytes + name_bytes, extra_bytes);
    at = next;
  }
  return total;
}

}  // namespace graphbench
