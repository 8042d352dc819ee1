// Atomic file replacement (see atomic_file.h). POSIX: open, write, fsync, close, rename.
#include "graphbench/core/report/atomic_file.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace graphbench {

namespace {

namespace fs = std::filesystem;

// "<path>: cannot write file (<step>: <system reason>)"
[[noreturn]] void fail(const fs::path& path, const std::string& step, const std::string& reason) {
  throw Error(fmt::format("{}: cannot write file ({}: {})", path.string(), step, reason));
}

[[noreturn]] void fail(const fs::path& path, const std::string& step, int error_number) {
  fail(path, step, std::strerror(error_number));
}

// The temporaries being written, as plain C strings a signal handler may read and unlink.
struct TemporarySlot {
  std::atomic<bool> used{false};
  char path[4096] = {};
};
std::array<TemporarySlot, 16> g_temporaries;

int register_temporary(const fs::path& temporary) {
  const std::string& text = temporary.native();
  if (text.size() >= sizeof(TemporarySlot::path)) return -1;
  for (std::size_t i = 0; i < g_temporaries.size(); ++i) {
    TemporarySlot& slot = g_temporaries[i];
    if (slot.used.load()) continue;
    std::memcpy(slot.path, text.c_str(), text.size() + 1);
    slot.used.store(true);
    return static_cast<int>(i);
  }
  return -1;  // more than 16 at once: not removed by a signal handler, the next run removes it
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_temporaries[static_cast<std::size_t>(slot)].used.store(false);
}

void write_all(int fd, const std::string& content, const fs::path& path) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail(path, "write", errno);
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

// Writes, syncs and closes the temporary file; removes it and rethrows on failure.
void write_temporary(const fs::path& temporary, const std::string& content, const fs::path& path) {
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) fail(path, fmt::format("create {}", temporary.string()), errno);
  try {
    write_all(fd, content, path);
    if (::fsync(fd) != 0) fail(path, "fsync", errno);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int error_number = errno;
    ::unlink(temporary.c_str());
    fail(path, "close", error_number);
  }
}

fs::path directory_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

// The pid of ".<name>.tmp-<pid>", or 0 when `file` is not a temporary of `name`.
pid_t temporary_owner(const std::string& file, const std::string& name) {
  const std::string prefix = "." + name + ".tmp-";
  if (file.size() <= prefix.size() || file.compare(0, prefix.size(), prefix) != 0) return 0;
  pid_t pid = 0;
  for (std::size_t i = prefix.size(); i < file.size(); ++i) {
    if (file[i] < '0' || file[i] > '9' || pid > 100000000) return 0;
    pid = pid * 10 + (file[i] - '0');
  }
  return pid;
}

bool process_alive(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

}  // namespace

fs::path temporary_path_for(const fs::path& path) {
  return directory_of(path) / fmt::format(".{}.tmp-{}", path.filename().string(), ::getpid());
}

PendingFile::PendingFile(fs::path path, const std::string& content) : path_(std::move(path)) {
  if (!path_.has_filename()) fail(path_, "no file name", "the path names a directory");
  temporary_ = temporary_path_for(path_);
  slot_ = register_temporary(temporary_);
  try {
    write_temporary(temporary_, content, path_);
  } catch (...) {
    unregister_temporary(slot_);
    throw;
  }
  pending_ = true;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : path_(std::move(other.path_)), temporary_(std::move(other.temporary_)), slot_(other.slot_), pending_(other.pending_) {
  other.slot_ = -1;
  other.pending_ = false;
}

PendingFile::~PendingFile() {
  if (pending_) ::unlink(temporary_.c_str());
  unregister_temporary(slot_);
}

void PendingFile::commit() {
  if (!pending_) return;
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int error_number = errno;
    fail(path_, fmt::format("rename {} into place", temporary_.string()), error_number);
  }
  pending_ = false;
  unregister_temporary(slot_);
  slot_ = -1;
}

void write_file_atomically(const fs::path& path, const std::string& content) {
  const fs::path directory = directory_of(path);
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) fail(path, fmt::format("create directory {}", directory.string()), ec.message());
  PendingFile file(path, content);
  file.commit();
  sync_directory(directory);
}

std::vector<std::string> remove_stale_temporaries(const fs::path& directory, const std::vector<std::string>& names) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    const std::string file = entry.path().filename().string();
    for (const auto& name : names) {
      const pid_t owner = temporary_owner(file, name);
      if (owner <= 0 || owner == ::getpid() || process_alive(owner)) continue;
      std::error_code remove_error;
      if (fs::remove(entry.path(), remove_error)) removed.push_back(entry.path().string());
    }
  }
  return removed;
}

void remove_pending_temporaries() noexcept {
  for (TemporarySlot& slot : g_temporaries) {
    if (slot.used.load()) ::unlink(slot.path);
  }
}

void sync_directory(const fs::path& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace graphbench
