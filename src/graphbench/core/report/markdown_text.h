// Text that goes into a Markdown table cell or a one-line list item: pipes escaped, line breaks
// and other control characters (tabs, escape sequences) shown as spaces, so that a name or a
// reason can never break a table row or start a new list item.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace graphbench {

inline std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Three significant digits, whole numbers from 1000 up: 1234, 70.9, 7.85, 1.2, 0.061.
inline std::string human_number(double value) {
  if (std::isfinite(value) && std::fabs(value) >= 999.5) return fmt::format("{:.0f}", value);
  return fmt::format("{:.3g}", value);
}

}  // namespace graphbench
