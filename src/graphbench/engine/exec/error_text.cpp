#include "graphbench/engine/exec/error_text.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>

#include <regex>
#include <sstream>
#include <vector>

namespace graphbench {

namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines, std::size_t first = 0) {
  std::string out;
  for (std::size_t i = first; i < lines.size(); ++i) {
    const std::string line = trim(lines[i]);
    if (line.empty()) continue;
    if (!out.empty()) out += ' ';
    out += line;
  }
  return out;
}

// c10 errors (and messages built from them) carry "Exception raised from ..." and a C++ backtrace.
std::string without_backtrace(std::string text) {
  const auto at = text.find("Exception raised from ");
  if (at != std::string::npos) text.erase(at);
  return text;
}

// TorchScript's traceback: the line above the innermost "<--- HERE" raised the error after the frame.
std::string script_error(const std::vector<std::string>& lines) {
  std::size_t marker = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("<--- HERE") != std::string::npos) marker = i;
  }
  if (marker == lines.size() || marker == 0) return "";
  std::size_t error = marker + 1;
  while (error < lines.size() && (lines[error].empty() || lines[error][0] == ' ')) ++error;
  // A traced model adds the Python frames it was traced from ("Traceback of TorchScript, original
  // code"), unindented: the message is the first line after them that names an exception.
  if (error < lines.size() && lines[error].rfind("Traceback of TorchScript, original code", 0) == 0) {
    static const std::regex exception_line(R"(^[A-Za-z_][A-Za-z0-9_.]*(Error|Exception)\b.*)");
    std::size_t named = error + 1;
    while (named < lines.size() && !std::regex_match(lines[named], exception_line)) ++named;
    if (named < lines.size()) error = named;
  }
  const std::string message = join_lines(lines, error);
  if (message.empty()) return "";
  return fmt::format("{} (TorchScript: `{}`)", message, trim(lines[marker - 1]));
}

}  // namespace

std::string error_text(const std::string& message) {
  const auto lines = split_lines(without_backtrace(message));
  if (message.find("Traceback of TorchScript") != std::string::npos) {
    std::string text = script_error(lines);
    if (!text.empty()) return text;
  }
  return join_lines(lines);
}

std::string error_text(const std::exception& error) {
  if (const auto* c10_error = dynamic_cast<const c10::Error*>(&error)) {
    return error_text(std::string(c10_error->what_without_backtrace()));
  }
  return error_text(std::string(error.what()));
}

}  // namespace graphbench
