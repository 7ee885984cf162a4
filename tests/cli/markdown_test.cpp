// Names in markdown reports are text: no markup, no HTML, no broken tables.
#include <catch2/catch.hpp>

#include "roofcast/output/markdown.hpp"

using namespace roofcast;

TEST_CASE("markdown text escapes markup and shows control characters") {
  CHECK(markdown_text("sor_red") == "sor_red");
  CHECK(markdown_text("<img src=x onerror=alert(1)> [a](http://x) | `c` *d* & \\") ==
        "\\<img src=x onerror=alert(1)\\> \\[a\\](http://x) \\| \\`c\\` \\*d\\* \\& \\\\");
  CHECK(markdown_text("a\nb") == "a\\\\x0ab");
}

TEST_CASE("markdown code spans and blocks are fenced beyond the backquotes they hold") {
  CHECK(markdown_code("gemm<float>") == "`gemm<float>`");
  CHECK(markdown_code("a``b") == "```a``b```");
  CHECK(markdown_code("`x") == "`` `x ``");
  CHECK(markdown_code_block("roofcast validate --profile 'a```b'") ==
        "````\nroofcast validate --profile 'a```b'\n````\n");
}

TEST_CASE("markdown tables escape every cell and header") {
  CHECK(markdown_table({"kernel", "GPU|x", "ms"}, {{"a|b", "<i>", "1.0"}}, 2) ==
        "| kernel | GPU\\|x | ms |\n| --- | --- | ---: |\n| a\\|b | \\<i\\> | 1.0 |\n");
}
