#pragma once

// Markdown for reports people read on a forge or in an editor. Names are data: they reach
// the markdown only through these functions, after printable() (formats/printable_text.hpp).

#include <string>
#include <string_view>
#include <vector>

#include "roofcast/output/table.hpp"

namespace roofcast {

// Text with the characters that markdown reads as markup (\ ` * [ ] < > | &) escaped with a
// backslash, so a name is shown as it is and never becomes a link, HTML or a table cell
// break. Underscores are left as they are: names are full of them and GFM ignores them
// inside words.
std::string markdown_text(std::string_view text);

// An inline code span of `text`, fenced with more backquotes than `text` holds in a row.
std::string markdown_code(std::string_view text);

// A fenced code block of `text` (a command line), fenced with more backquotes than it holds in a row.
std::string markdown_code_block(std::string_view text);

// A table: `headers` and `rows` are text (escaped here); the first `text_columns` columns
// are left-aligned, the rest (numbers) right-aligned.
std::string markdown_table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                           size_t text_columns);

// `table` as a markdown table: its leading left-aligned (text) columns left, the rest right.
std::string render_markdown(const Table& table);

}  // namespace roofcast
