// Writes result files so that a reader never sees half of one: to a synced temporary in the same
// directory (".<name>.tmp-<pid>"), then renamed over the target. A killed run's temporaries are
// removed by the next run into the directory (remove_stale_temporaries).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace graphbench {

// ".<filename>.tmp-<pid>" beside `path`.
std::filesystem::path temporary_path_for(const std::filesystem::path& path);

// A file written in two steps, so that several can be replaced together: the constructor writes
// `content` to the temporary and syncs it; commit() renames it over the target. An uncommitted
// temporary is removed by the destructor. Failures throw graphbench::Error naming the path and
// the system reason; the target is then left as it was.
class PendingFile {
 public:
  PendingFile(std::filesystem::path path, const std::string& content);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  PendingFile(PendingFile&& other) noexcept;
  PendingFile& operator=(PendingFile&&) = delete;

  void commit();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path temporary_;
  int slot_ = -1;  // in the registry of temporaries that remove_pending_temporaries() removes
  bool pending_ = false;
};

// Writes one file atomically, creating missing parent directories, and syncs the directory.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

// Removes, in `directory`, the temporaries of `names` (".<name>.tmp-<pid>") whose process no
// longer runs: what a killed run left. Returns the paths removed.
std::vector<std::string> remove_stale_temporaries(const std::filesystem::path& directory,
                                                  const std::vector<std::string>& names);

// Async-signal-safe: removes every temporary this process is writing now.
void remove_pending_temporaries() noexcept;

// Best effort: makes renames in `directory` durable.
void sync_directory(const std::filesystem::path& directory);

}  // namespace graphbench
