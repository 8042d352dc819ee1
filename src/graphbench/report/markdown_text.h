// Text that goes into a Markdown table cell: pipes escaped, line breaks flattened.
#pragma once

#include <string>

namespace graphbench {

inline std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace graphbench
