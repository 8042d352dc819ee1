// Small text helpers more than one layer uses.
#pragma once

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <string>

namespace graphbench {

// `text` in lower case (ASCII letters; other bytes as they are).
inline std::string lower_case(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// `bytes` as MiB with one decimal, as the messages about free space write it: "12.5 MiB".
inline std::string mib_text(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
}

}  // namespace graphbench
