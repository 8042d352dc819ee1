// Text that goes into a Markdown table cell or a one-line list item: pipes escaped, line breaks
// and other control characters (tabs, escape sequences) shown as spaces, so that a name or a
// reason can never break a table row or start a new list item.
#pragma once

#include "graphbench/core/stats/statistics.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
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

// Bytes as MiB, in human_number's digits.
inline std::string human_mib(double bytes) { return human_number(bytes / (1024.0 * 1024.0)); }

// "6.31x", or "6.31x [6.10-6.52]" with a 95% interval.
inline std::string speedup_text(double speedup, const std::optional<stats::Interval>& ci95 = std::nullopt) {
  const std::string text = fmt::format("{:.2f}x", speedup);
  return ci95 ? text + fmt::format(" [{:.2f}-{:.2f}]", ci95->low, ci95->high) : text;
}

}  // namespace graphbench
