#include "graphbench/core/report/rescue_file.h"

#include "graphbench/core/report/json_io.h"

#include <cstdlib>
#include <string>

#include <unistd.h>

namespace graphbench {

namespace {

std::string file_name_part(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '-';
    out += keep ? c : '_';
  }
  return out.empty() ? "run" : out;
}

// The whole text to a new file; false (and nothing left behind) if any of it cannot be written.
bool write_new_file(std::string& path_template, const std::string& text) {
  const int fd = ::mkstemps(path_template.data(), 5);  // the 5 characters of ".json" stay
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool ok = done == text.size() && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) ::unlink(path_template.c_str());
  return ok;
}

}  // namespace

std::string system_temporary_directory() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

std::string rescue_results(const RunReport& report, const std::string& suite, const std::string& temporary_directory,
                           std::ostream& fallback) {
  const std::string text =
      to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::string path = temporary_directory + "/graphbench-rescued-" + file_name_part(suite) + "-XXXXXX.json";
  if (write_new_file(path, text)) return path;
  fallback << text << std::flush;
  return "standard output";
}

}  // namespace graphbench
