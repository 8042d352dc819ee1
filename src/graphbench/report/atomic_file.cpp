// Atomic file replacement (see atomic_file.h). POSIX: open, write, fsync, close, rename.
#include "graphbench/report/atomic_file.h"

#include "graphbench/core/errors.h"

#include <fmt/format.h>

#include <cerrno>
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

// Best effort: make the rename itself durable. A failure here does not undo the write.
void sync_directory(const fs::path& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Writes, syncs and closes the temporary file; removes it and rethrows on failure.
void write_temporary(const fs::path& temporary, const std::string& content,
                     const fs::path& path) {
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

}  // namespace

void write_file_atomically(const fs::path& path, const std::string& content) {
  if (!path.has_filename()) fail(path, "no file name", "the path names a directory");
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) fail(path, fmt::format("create directory {}", directory.string()), ec.message());

  const fs::path temporary =
      directory / fmt::format(".{}.tmp-{}", path.filename().string(), ::getpid());
  write_temporary(temporary, content, path);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error_number = errno;
    ::unlink(temporary.c_str());
    fail(path, fmt::format("rename {} into place", temporary.string()), error_number);
  }
  sync_directory(directory);
}

}  // namespace graphbench
