// JSON files as the suite parser and the results reader see them: reading and parsing with errors
// that name the file, line and column (InputError), JSON pointers for messages. Hostile files are
// refused: over kMaxJsonFileBytes, nesting deeper than kMaxJsonDepth (the JSON library recurses),
// a number too large for a double, a key twice in one object.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>

#include <cstddef>
#include <string>
#include <vector>

namespace graphbench {

// Suite and results files nest about five levels deep and weigh kilobytes to a few megabytes.
constexpr int kMaxJsonDepth = 64;
constexpr std::size_t kMaxJsonFileBytes = std::size_t{256} << 20;

// The whole file as text (InputError past kMaxJsonFileBytes). `what` names the kind of file in errors:
// "<path>: cannot open <what>: No such file or directory".
std::string read_text_file(const std::string& path, const std::string& what);
// The same for an open stream (standard input), named `name` in errors.
std::string read_text_stream(std::FILE* stream, const std::string& name, const std::string& what);

// Parses `text`; InputError "<path>: invalid JSON at line L, column C: <reason>" (columns count
// bytes), "<path>: <pointer>: nesting deeper than 64 levels", "<path>: <pointer>: duplicate key
// "<key>"", or "<path>: line L, column C: number 1e999 does not fit in a double".
nlohmann::json parse_json_text(const std::string& text, const std::string& path);

// "/cases" + "name" -> "/cases/name", escaping '~' and '/' as RFC 6901 asks.
std::string json_pointer_append(const std::string& base, const std::string& key);
std::string json_pointer_append(const std::string& base, std::size_t index);

// A value as JSON for a message: compact, cut to about 60 characters.
std::string json_for_message(const nlohmann::json& value);

// "a, b, c"
std::string join_names(const std::vector<std::string>& names);
bool contains_name(const std::vector<std::string>& names, const std::string& name);

}  // namespace graphbench
