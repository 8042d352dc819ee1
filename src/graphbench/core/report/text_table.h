// A Markdown table built row by row, written as results.md has it ("| a | b |") or for a terminal:
// padded columns (numbers to the right), those empty on every row left out. Cells are escaped.
#pragma once

#include <string>
#include <vector>

namespace graphbench {

class TextTable {
 public:
  enum class Align { kLeft, kRight };
  struct Column {
    std::string header;
    Align align = Align::kLeft;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

  // A row of as many cells as there are columns (escaped when written).
  void add_row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }

  // results.md's form: "| a | b |", then "|---|--:|", then one line per row.
  std::string markdown() const;
  // The terminal's form: aligned, and without the columns empty on every row.
  std::string aligned() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Characters on a terminal: UTF-8 code points, not bytes ("±" is one).
std::size_t display_width(const std::string& text);

}  // namespace graphbench
