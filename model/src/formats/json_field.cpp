#include "roofcast/formats/json_field.hpp"

#include <cmath>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"

namespace roofcast {

using nlohmann::json;

json parse_json_document(std::string_view text, const std::string& source, const json::parser_callback_t& callback) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(fmt::format("{}: empty file, expected a JSON object", source));
  try {
    return json::parse(text, callback);
  } catch (const json::parse_error& error) {
    throw InputError(fmt::format("{}: not valid JSON (byte {}): {}", source, error.byte,
                                 error.byte >= text.size() ? "the file ends too early (truncated?)"
                                                           : "unexpected character"));
  } catch (const json::exception& error) {
    // out_of_range 406: a number beyond the double range, such as 1e400.
    if (error.id == 406) throw InputError(fmt::format("{}: not valid JSON: a number beyond the double range", source));
    throw InputError(fmt::format("{}: not valid JSON: {}", source, error.what()));
  }
}

Field::Field(const json& value, std::string source, std::string path)
    : value_(value), source_(std::move(source)), path_(std::move(path)) {}

void Field::fail(std::string_view problem) const {
  if (path_.empty()) throw InputError(fmt::format("{}: {}", source_, problem));
  throw InputError(fmt::format("{}: {}: {}", source_, path_, problem));
}

Field Field::member(const std::string& key) const {
  object();
  const auto it = value_.find(key);
  if (it == value_.end()) Field(value_, source_, join(key)).fail("missing");
  return Field(*it, source_, join(key));
}

Field Field::element(size_t index) const {
  return Field(array().at(index), source_, fmt::format("{}[{}]", path_, index));
}

const json& Field::object() const {
  if (!value_.is_object()) fail(fmt::format("expected an object, found {}", value_.type_name()));
  return value_;
}

const json& Field::array() const {
  if (!value_.is_array()) fail(fmt::format("expected an array, found {}", value_.type_name()));
  return value_;
}

std::string Field::string() const {
  if (!value_.is_string()) fail(fmt::format("expected a string, found {}", value_.type_name()));
  return value_.get<std::string>();
}

std::string Field::non_empty_string() const {
  std::string text = string();
  if (text.empty()) fail("must not be empty");
  return text;
}

bool Field::boolean() const {
  if (!value_.is_boolean()) fail("expected true or false");
  return value_.get<bool>();
}

double Field::number() const {
  if (!value_.is_number()) fail(fmt::format("expected a number, found {}", value_.type_name()));
  const double number = value_.get<double>();
  if (!std::isfinite(number)) fail("expected a finite number");
  return number;
}

double Field::non_negative() const {
  const double n = number();
  if (n < 0) fail(fmt::format("must be >= 0, found {}", n));
  if (n != 0 && (n < input_limits::kSmallest || n > input_limits::kLargest))
    fail(fmt::format("must be 0 or between {:g} and {:g}, found {:g}", input_limits::kSmallest,
                     input_limits::kLargest, n));
  return n;
}

double Field::positive() const {
  const double n = number();
  if (n <= 0) fail(fmt::format("must be > 0, found {}", n));
  if (n < input_limits::kSmallest || n > input_limits::kLargest)
    fail(fmt::format("must be between {:g} and {:g}, found {:g}", input_limits::kSmallest, input_limits::kLargest, n));
  return n;
}

double Field::throughput() const {
  const double n = number();
  if (n <= 0) fail(fmt::format("must be > 0, found {}", n));
  if (n < input_limits::kMinThroughput || n > input_limits::kMaxThroughput)
    fail(fmt::format("must be between {:g} and {:g}, found {:g}", input_limits::kMinThroughput,
                     input_limits::kMaxThroughput, n));
  return n;
}

int64_t Field::whole(double min, double max) const {
  const double n = number();
  if (n != std::floor(n) || n < min || n > max)
    fail(fmt::format("expected a whole number from {:.0f} to {:.0f}, found {:g}", min, max, n));
  return static_cast<int64_t>(n);
}

void KernelNames::add(const std::string& name, size_t index, const Field& entry) {
  const auto [earlier, added] = first_index_.try_emplace(name, index);
  if (!added)
    entry.member("name").fail(fmt::format(
        "\"{}\" is listed again (first at kernels[{}]); a kernel appears once, its launches summed", name,
        earlier->second));
}

Field check_header(const json& document, const std::string& source, std::string_view expected_format,
                   int supported_version) {
  Field root(document, source, "");
  root.object();
  const Field format = root.member("format");
  if (format.string() != expected_format)
    format.fail(fmt::format("expected \"{}\", found \"{}\"", expected_format, format.string()));
  const Field version = root.member("version");
  const double number = version.number();
  if (number != std::floor(number) || number < 1) version.fail("expected a positive integer");
  if (number > supported_version)
    version.fail(fmt::format("version {:g} is newer than this roofcast reads ({}); upgrade roofcast", number,
                             supported_version));
  return root;
}

}  // namespace roofcast
