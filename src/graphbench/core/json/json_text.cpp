#include "graphbench/core/json/json_text.h"

#include "graphbench/core/base/errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>

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

// Text safe to print: control characters escaped, bytes that are not UTF-8 as U+FFFD (the JSON
// library quotes what it read, which may be anything).
std::string printable(const std::string& text) {
  const std::string quoted = json(text).dump(-1, ' ', false, json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at ...: " prefix.
std::string parse_error_reason(const std::string& what) {
  const auto error_at = what.find("parse error");
  if (error_at == std::string::npos) return printable(what);
  const auto colon = what.find(": ", error_at);
  if (colon == std::string::npos) return printable(what);
  return printable(what.substr(colon + 2));
}

// Follows the parser's events to know where it is (a JSON pointer), and refuses nesting deeper
// than kMaxJsonDepth and a key that its object already holds, while the file is being parsed.
class StructureGuard {
 public:
  explicit StructureGuard(const std::string& path) : path_(path) {}

  bool on_event(json::parse_event_t event, const json& parsed) {
    using Event = json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        begin_element();
        frames_.push_back(Frame{event == Event::object_start, {}, {}, 0, false});
        if (frames_.size() > static_cast<std::size_t>(kMaxJsonDepth)) {
          throw InputError(fmt::format("{}: {}: nesting deeper than {} levels (a graphbench file nests a few)",
                                       path_, pointer_or_root(), kMaxJsonDepth));
        }
        break;
      case Event::key: {
        Frame& object = frames_.back();
        object.key = parsed.get<std::string>();
        object.has_child = true;
        if (!object.keys.insert(object.key).second) {
          throw InputError(fmt::format("{}: {}: duplicate key \"{}\" (an object may hold each key once)", path_,
                                       pointer_or_root(), object.key));
        }
        break;
      }
      case Event::value: begin_element(); break;
      case Event::object_end:
      case Event::array_end: frames_.pop_back(); break;
    }
    return true;
  }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string> keys;  // objects: the keys seen so far
    std::string key;             // objects: the key of the current member
    std::size_t index = 0;       // arrays: the index of the current element
    bool has_child = false;
  };

  // An element starts inside the innermost container: arrays count it.
  void begin_element() {
    if (frames_.empty() || frames_.back().object) return;
    Frame& array = frames_.back();
    if (array.has_child) ++array.index;
    array.has_child = true;
  }

  std::string pointer_or_root() const {
    std::string pointer;
    for (const Frame& f : frames_) {
      if (!f.has_child) break;
      pointer = f.object ? json_pointer_append(pointer, f.key) : json_pointer_append(pointer, f.index);
    }
    return pointer.empty() ? "the top level" : pointer;
  }

  const std::string& path_;
  std::vector<Frame> frames_;
};

// Where `token` first appears in `text`, for errors the JSON library gives without a position.
std::string position_of(const std::string& text, const std::string& token) {
  const auto at = text.find(token);
  if (token.empty() || at == std::string::npos) return "";
  const auto [line, column] = line_and_column(text, at + 1);
  return fmt::format("line {}, column {}: ", line, column);
}

// The token of "number overflow parsing '1e999'".
std::string quoted_token(const std::string& what) {
  const auto open = what.find('\'');
  const auto close = what.rfind('\'');
  if (open == std::string::npos || close <= open) return "";
  return what.substr(open + 1, close - open - 1);
}

[[noreturn]] void fail_file(const std::string& path, const std::string& what, int error_number) {
  throw InputError(fmt::format("{}: {}: {}", path, what, std::strerror(error_number)));
}

}  // namespace

std::string read_text_stream(std::FILE* stream, const std::string& name, const std::string& what) {
  std::string text;
  char buffer[1 << 16];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0) {
    text.append(buffer, count);
    if (text.size() > kMaxJsonFileBytes) {
      throw InputError(fmt::format("{}: {} larger than {} MiB: not a graphbench file", name, what,
                                   kMaxJsonFileBytes >> 20));
    }
  }
  if (std::ferror(stream)) fail_file(name, "cannot read " + what, errno);
  return text;
}

std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail_file(path, "cannot open " + what, EISDIR);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) fail_file(path, "cannot open " + what, errno);
  return read_text_stream(file.get(), path, what);
}

json parse_json_text(const std::string& text, const std::string& path) {
  StructureGuard guard(path);
  const json::parser_callback_t on_event = [&guard](int /*depth*/, json::parse_event_t event, json& parsed) {
    return guard.on_event(event, parsed);
  };
  try {
    return json::parse(text, on_event);
  } catch (const json::parse_error& e) {
    const auto [line, column] = line_and_column(text, e.byte);
    throw InputError(fmt::format("{}: invalid JSON at line {}, column {}: {}", path, line, column,
                                 parse_error_reason(e.what())));
  } catch (const json::out_of_range& e) {
    // 406: a number too large for a double; the library gives no position.
    const std::string token = quoted_token(e.what());
    throw InputError(fmt::format("{}: {}number {} does not fit in a double (largest about 1.8e308)", path,
                                 position_of(text, token), token.empty() ? "" : token));
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: invalid JSON: {}", path, parse_error_reason(e.what())));
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
