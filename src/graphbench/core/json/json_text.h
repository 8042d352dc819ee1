// JSON files as the suite parser and the results reader see them: reading a file, parsing it with
// errors that name the file, the line and the column, JSON pointers (RFC 6901) for messages, and a
// value cut short for a message. Every error is an InputError that starts with the file's name.
//
// Hostile files are refused before they can do harm: a file larger than kMaxJsonFileBytes is not
// read to the end, nesting deeper than kMaxJsonDepth is refused while parsing (the JSON library's
// copy, compare and dump recurse, so a file of 100 000 '[' would otherwise overflow the stack
// later), a number too large for a double (1e999) is bad input, and so is an object that holds
// the same key twice (the JSON library would silently keep the last).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>

#include <cstddef>
#include <string>
#include <vector>

namespace graphbench {

// Limits on what graphbench reads as JSON. Suite and results files nest about five levels deep
// and weigh kilobytes to a few megabytes.
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
