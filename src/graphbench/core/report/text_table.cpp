#include "graphbench/core/report/text_table.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/report/markdown_text.h"

#include <algorithm>

namespace graphbench {

namespace {

std::string padded(const std::string& text, std::size_t width, TextTable::Align align) {
  const std::string pad(width - std::min(width, display_width(text)), ' ');
  return align == TextTable::Align::kRight ? pad + text : text + pad;
}

}  // namespace

std::size_t display_width(const std::string& text) {
  // Continuation bytes of a UTF-8 sequence are 10xxxxxx.
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) throw Error("TextTable: a row of the wrong number of cells");
  for (auto& cell : cells) cell = markdown_cell(cell);
  rows_.push_back(std::move(cells));
}

std::string TextTable::markdown() const {
  std::string out = "|";
  for (const auto& c : columns_) out += " " + c.header + " |";
  out += "\n|";
  for (const auto& c : columns_) out += c.align == Align::kRight ? "--:|" : "---|";
  out += "\n";
  for (const auto& row : rows_) {
    out += '|';
    for (const auto& cell : row) out += ' ' + cell + " |";
    out += '\n';
  }
  return out;
}

std::string TextTable::aligned() const {
  std::vector<std::size_t> kept;
  std::vector<std::size_t> widths;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    std::size_t width = 0;
    for (const auto& row : rows_) width = std::max(width, display_width(row[i]));
    if (width == 0 && !rows_.empty()) continue;  // empty on every row
    kept.push_back(i);
    widths.push_back(std::max(width, display_width(columns_[i].header)));
  }
  std::string out = "|";
  for (std::size_t k = 0; k < kept.size(); ++k) out += " " + padded(columns_[kept[k]].header, widths[k], Align::kLeft) + " |";
  out += "\n|";
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const bool right = columns_[kept[k]].align == Align::kRight;
    out += std::string(widths[k] + (right ? 1 : 2), '-') + (right ? ":|" : "|");
  }
  out += "\n";
  for (const auto& row : rows_) {
    out += '|';
    for (std::size_t k = 0; k < kept.size(); ++k) out += " " + padded(row[kept[k]], widths[k], columns_[kept[k]].align) + " |";
    out += '\n';
  }
  return out;
}

}  // namespace graphbench
