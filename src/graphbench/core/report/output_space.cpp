#include "graphbench/core/report/output_space.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/text.h"

#include <fmt/format.h>

#include <sys/statvfs.h>

namespace graphbench {

namespace {

// What one record takes at least in each format, beside its samples: identity, parameters,
// statistics and the environment's share (measured on the files of our own suites, rounded down),
// and what each sample adds (JSON: device, host and issue time; gbench: one repetition entry).
constexpr std::uint64_t kJsonRecordBytes = 2048;
constexpr std::uint64_t kJsonSampleBytes = 3 * 8;
constexpr std::uint64_t kCsvRecordBytes = 256;
constexpr std::uint64_t kMarkdownRecordBytes = 128;
constexpr std::uint64_t kGbenchRecordBytes = 1024;
constexpr std::uint64_t kGbenchSampleBytes = 200;

}  // namespace

std::uint64_t minimum_result_bytes(std::size_t records, int min_samples, const OutputFormats& formats) {
  const std::uint64_t samples = min_samples > 0 ? static_cast<std::uint64_t>(min_samples) : 0;
  std::uint64_t per_record = 0;
  if (formats.json) per_record += kJsonRecordBytes + samples * kJsonSampleBytes;
  if (formats.csv) per_record += kCsvRecordBytes;
  if (formats.md) per_record += kMarkdownRecordBytes;
  if (formats.gbench) per_record += kGbenchRecordBytes + samples * kGbenchSampleBytes;
  return per_record * records;
}

std::optional<std::uint64_t> available_bytes(const std::string& directory) {
  struct statvfs fs {};
  if (::statvfs(directory.c_str(), &fs) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_frsize);
}

void check_output_space(const std::string& directory, std::optional<std::uint64_t> available, std::uint64_t needed,
                        std::size_t records) {
  if (!available || *available >= needed) return;
  throw InputError(fmt::format(
      "output directory {}: only {} free on its file system, and the results of {} record(s) need at least {} "
      "(give a directory with room with -o DIR, or run fewer cases with --cases)",
      directory, mib_text(*available), records, mib_text(needed)));
}

}  // namespace graphbench
