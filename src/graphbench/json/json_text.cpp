#include "graphbench/json/json_text.h"

#include "graphbench/core/errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace graphbench {

using nlohmann::json;

namespace {

// Line and column (1-based, columns in bytes) of the character nlohmann's parse_error::byte
// points at (the count of bytes read, the offending one included).
std::pair<std::size_t, std::size_t> line_and_column(const std::string& text, std::size_t byte) {
  const std::size_t before = std::min(byte > 0 ? byte - 1 : 0, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < before; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, before - line_start + 1};
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at ...: " prefix.
std::string parse_error_reason(const std::string& what) {
  const auto error_at = what.find("parse error");
  if (error_at == std::string::npos) return what;
  const auto colon = what.find(": ", error_at);
  if (colon == std::string::npos) return what;
  return what.substr(colon + 2);
}

[[noreturn]] void fail_file(const std::string& path, const std::string& what, int error_number) {
  throw InputError(fmt::format("{}: {}: {}", path, what, std::strerror(error_number)));
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail_file(path, "cannot open " + what, EISDIR);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) fail_file(path, "cannot open " + what, errno);
  std::string text;
  char buffer[1 << 16];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, count);
  if (std::ferror(file.get())) fail_file(path, "cannot read " + what, errno);
  return text;
}

json parse_json_text(const std::string& text, const std::string& path) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    const auto [line, column] = line_and_column(text, e.byte);
    throw InputError(fmt::format("{}: invalid JSON at line {}, column {}: {}", path, line, column,
                                 parse_error_reason(e.what())));
  }
}

std::string json_pointer_append(const std::string& base, const std::string& key) {
  std::string escaped;
  escaped.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return base + "/" + escaped;
}

std::string json_pointer_append(const std::string& base, std::size_t index) {
  return fmt::format("{}/{}", base, index);
}

std::string json_for_message(const json& value) {
  constexpr std::size_t kMaxChars = 60;
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kMaxChars) text = text.substr(0, kMaxChars - 3) + "...";
  return text;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

bool contains_name(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace graphbench
