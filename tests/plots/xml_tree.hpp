#pragma once

// A small XML reader for the tests: enough to check that gnuplot's SVG is well formed and
// to find its elements. Throws std::runtime_error (with the byte offset) on malformed input.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  // character data directly inside, entities decoded
  std::vector<std::unique_ptr<XmlElement>> children;

  std::string attribute(const std::string& key) const {
    const auto it = attributes.find(key);
    return it == attributes.end() ? "" : it->second;
  }
  // Every descendant (depth first, document order) named `element_name`.
  std::vector<const XmlElement*> descendants(std::string_view element_name) const;
  // All text inside, descendants included.
  std::string all_text() const;
};

std::unique_ptr<XmlElement> parse_xml(std::string_view document);

}  // namespace roofcast::testing
