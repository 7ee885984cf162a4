#include "xml_tree.hpp"

#include <cctype>
#include <stdexcept>

namespace roofcast::testing {

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::unique_ptr<XmlElement> document() {
    skip_misc();
    if (!starts_with("<")) fail("expected the root element");
    auto root = element();
    skip_misc();
    if (position_ != text_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw std::runtime_error("XML: " + problem + " at byte " + std::to_string(position_));
  }
  bool starts_with(std::string_view prefix) const { return text_.substr(position_).starts_with(prefix); }
  void skip_space() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }
  void skip_past(std::string_view end) {
    const auto found = text_.find(end, position_);
    if (found == std::string_view::npos) fail("unterminated construct, expected " + std::string(end));
    position_ = found + end.size();
  }
  // Prolog, comments, processing instructions, doctype and blank space between elements.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts_with("<?")) skip_past("?>");
      else if (starts_with("<!--")) skip_past("-->");
      else if (starts_with("<!DOCTYPE")) skip_past(">");
      else return;
    }
  }
  std::string name() {
    const size_t start = position_;
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' || c == '.') ++position_;
      else break;
    }
    if (position_ == start) fail("expected a name");
    return std::string(text_.substr(start, position_ - start));
  }
  std::string decoded(std::string_view raw) const {
    std::string out;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '<') throw std::runtime_error("XML: '<' in character data or attribute");
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const auto semicolon = raw.find(';', i);
      if (semicolon == std::string_view::npos) throw std::runtime_error("XML: '&' without ';'");
      const std::string_view entity = raw.substr(i + 1, semicolon - i - 1);
      if (entity == "amp") out += '&';
      else if (entity == "lt") out += '<';
      else if (entity == "gt") out += '>';
      else if (entity == "quot") out += '"';
      else if (entity == "apos") out += '\'';
      else if (entity.starts_with("#")) out += '?';  // numeric reference: valid, value not needed here
      else throw std::runtime_error("XML: unknown entity &" + std::string(entity) + ";");
      i = semicolon;
    }
    return out;
  }
  std::unique_ptr<XmlElement> element() {
    ++position_;  // '<'
    auto result = std::make_unique<XmlElement>();
    result->name = name();
    for (;;) {
      skip_space();
      if (starts_with("/>")) {
        position_ += 2;
        return result;
      }
      if (starts_with(">")) {
        ++position_;
        break;
      }
      const std::string key = name();
      skip_space();
      if (!starts_with("=")) fail("expected '=' after attribute " + key);
      ++position_;
      skip_space();
      if (position_ >= text_.size() || (text_[position_] != '"' && text_[position_] != '\'')) fail("unquoted attribute");
      const char quote = text_[position_++];
      const auto end = text_.find(quote, position_);
      if (end == std::string_view::npos) fail("unterminated attribute");
      if (result->attributes.contains(key)) fail("duplicate attribute " + key);
      result->attributes[key] = decoded(text_.substr(position_, end - position_));
      position_ = end + 1;
    }
    for (;;) {
      const auto next = text_.find('<', position_);
      if (next == std::string_view::npos) fail("unclosed element <" + result->name + ">");
      result->text += decoded(text_.substr(position_, next - position_));
      position_ = next;
      if (starts_with("</")) {
        position_ += 2;
        if (name() != result->name) fail("mismatched closing tag for <" + result->name + ">");
        skip_space();
        if (!starts_with(">")) fail("expected '>'");
        ++position_;
        return result;
      }
      if (starts_with("<!--")) skip_past("-->");
      else if (starts_with("<![CDATA[")) {
        const size_t start = position_ + 9;
        skip_past("]]>");
        result->text += std::string(text_.substr(start, position_ - 3 - start));
      } else result->children.push_back(element());
    }
  }

  std::string_view text_;
  size_t position_ = 0;
};

void collect(const XmlElement& element, std::string_view name, std::vector<const XmlElement*>& out) {
  for (const auto& child : element.children) {
    if (child->name == name) out.push_back(child.get());
    collect(*child, name, out);
  }
}

}  // namespace

std::vector<const XmlElement*> XmlElement::descendants(std::string_view element_name) const {
  std::vector<const XmlElement*> out;
  collect(*this, element_name, out);
  return out;
}

std::string XmlElement::all_text() const {
  std::string out = text;
  for (const auto& child : children) out += " " + child->all_text();
  return out;
}

std::unique_ptr<XmlElement> parse_xml(std::string_view document) { return Parser(document).document(); }

}  // namespace roofcast::testing
