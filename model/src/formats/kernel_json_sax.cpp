#include "roofcast/formats/kernel_json_sax.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "roofcast/formats/input_limits.hpp"
#include "roofcast/model/counter_names.hpp"
#include "roofcast/model/kernel_type.hpp"

namespace roofcast {

namespace {

namespace limits = input_limits;

// Field's checks (json_field.cpp) as predicates on a number already read.
bool is_non_negative(double n) {
  return std::isfinite(n) && n >= 0 && (n == 0 || (n >= limits::kSmallest && n <= limits::kLargest));
}
bool is_positive(double n) { return std::isfinite(n) && n >= limits::kSmallest && n <= limits::kLargest; }
bool is_whole(double n, double min, double max) {
  return std::isfinite(n) && n == std::floor(n) && n >= min && n <= max;
}

constexpr std::pair<std::string_view, double ThesisCounters::*> kThesisFields[] = {
    {"flop_count_sp_fma", &ThesisCounters::flop_count_sp_fma},
    {"flop_count_dp_fma", &ThesisCounters::flop_count_dp_fma},
    {"inst_compute_ld_st", &ThesisCounters::inst_compute_ld_st},
    {"inst_executed", &ThesisCounters::inst_executed},
    {"inst_fp_32", &ThesisCounters::inst_fp_32},
    {"inst_fp_64", &ThesisCounters::inst_fp_64},
    {"inst_integer", &ThesisCounters::inst_integer},
    {"dram_read_transactions", &ThesisCounters::dram_read_transactions},
    {"dram_write_transactions", &ThesisCounters::dram_write_transactions},
};
constexpr unsigned kAllThesisFields = (1u << std::size(kThesisFields)) - 1;

constexpr std::pair<std::string_view, double KernelParameters::*> kParameterFields[] = {
    {"W_comp", &KernelParameters::W_comp}, {"W_traf", &KernelParameters::W_traf},
    {"E_mix", &KernelParameters::E_mix},   {"D_ops", &KernelParameters::D_ops},
    {"D_ldst", &KernelParameters::D_ldst},
};

// The keys the checked reader reads, by the object they are in; a key seen twice is refused
// (the checked reader's tree keeps the last, which this reader does not bother to follow).
enum KernelKey : unsigned { kName = 1, kInvocations = 2, kMeasured = 4, kByDevice = 8, kShapes = 16,
                            kCounters = 32, kParameters = 64, kMangledName = 128 };
unsigned kernel_key(std::string_view key) {
  if (key == "name") return kName;
  if (key == "mangled_name") return kMangledName;
  if (key == "invocations") return kInvocations;
  if (key == "measured_ms") return kMeasured;
  if (key == "measured_ms_by_device") return kByDevice;
  if (key == "launch_shapes") return kShapes;
  if (key == "counters") return kCounters;
  if (key == "parameters") return kParameters;
  return 0;
}
enum ShapeKey : unsigned { kGrid = 1, kBlock = 2, kShapeInvocations = 4, kRegisters = 8, kStaticShared = 16,
                           kDynamicShared = 32 };
unsigned shape_key(std::string_view key) {
  if (key == "grid") return kGrid;
  if (key == "block") return kBlock;
  if (key == "invocations") return kShapeInvocations;
  if (key == "registers") return kRegisters;
  if (key == "static_shared_bytes") return kStaticShared;
  if (key == "dynamic_shared_bytes") return kDynamicShared;
  return 0;
}
unsigned parameter_key(std::string_view key) {
  if (key == "K_type") return 1;
  for (size_t i = 0; i < std::size(kParameterFields); ++i)
    if (key == kParameterFields[i].first) return 2u << i;
  return 0;
}
constexpr unsigned kAllParameterKeys = (2u << std::size(kParameterFields)) - 1;

// The events of a SAX parser: every event either fits a well-formed kernel or stops the walk
// (returns false).
class KernelSax {
 public:
  std::optional<KernelRecord> take() { return ok_ && done_ ? std::optional(std::move(record_)) : std::nullopt; }

  bool null() { return scalar(nullptr, nullptr); }
  bool boolean(bool) { return scalar(nullptr, nullptr); }
  bool number(double n) { return scalar(&n, nullptr); }
  bool string(std::string& text) { return scalar(nullptr, &text); }
  bool key(std::string_view key) {
    if (skip_depth_ == 0) key_.assign(key);
    return true;
  }
  bool start_object() { return open(true); }
  bool start_array() { return open(false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

 private:
  enum class Where { kernel, counters, by_device, parameters, shapes, shape, grid, block };

  bool refuse() {
    ok_ = false;
    return false;
  }

  // A key of the current object seen for the first time.
  bool first_time(unsigned& seen, unsigned key) {
    if (seen & key) return false;
    seen |= key;
    return true;
  }

  bool scalar(const double* number, std::string* text) {
    if (skip_depth_ > 0) return true;
    if (depth_ == 0) return refuse();  // a kernel that is not an object
    switch (stack_[depth_ - 1]) {
      case Where::kernel: {
        const unsigned key = kernel_key(key_);
        if (key == 0) return true;
        if (!first_time(kernel_seen_, key)) return refuse();
        if (key == kName && text && !text->empty()) {
          record_.name = std::move(*text);
          return true;
        }
        if (key == kMangledName && text) {
          record_.mangled_name = std::move(*text);
          return true;
        }
        if (key == kInvocations && number && is_whole(*number, 1, limits::kMaxCount)) {
          record_.invocations = static_cast<int64_t>(*number);
          return true;
        }
        if (key == kMeasured && number && is_positive(*number)) {
          record_.measured_ms = *number;
          return true;
        }
        return refuse();
      }
      case Where::by_device:
        if (!number || !is_positive(*number)) return refuse();
        return record_.measured_ms_by_device.try_emplace(key_, *number).second || refuse();
      case Where::counters: return counter(number);
      case Where::parameters: {
        const unsigned key = parameter_key(key_);
        if (key == 0) return true;
        if (!first_time(parameters_seen_, key)) return refuse();
        if (key == 1) {
          const auto type = text ? kernel_type_from_string(*text) : std::nullopt;
          if (!type) return refuse();
          parameters_.type = *type;
          return true;
        }
        if (!number || !is_non_negative(*number)) return refuse();
        for (const auto& [name, member] : kParameterFields)
          if (name == key_) parameters_.*member = *number;
        return true;
      }
      case Where::shapes: return refuse();  // a launch shape that is not an object
      case Where::shape: {
        const unsigned key = shape_key(key_);
        if (key == 0) return true;
        if (!first_time(shape_seen_, key) || !number) return refuse();
        switch (key) {
          case kShapeInvocations:
            if (!is_whole(*number, 0, limits::kMaxCount)) return refuse();
            shape_.invocations = static_cast<int64_t>(*number);
            return true;
          case kRegisters:
            if (!is_whole(*number, 0, limits::kMaxRegistersPerThread)) return refuse();
            shape_.registers_per_thread = static_cast<int>(static_cast<int64_t>(*number));
            return true;
          case kStaticShared:
          case kDynamicShared:
            if (!is_whole(*number, 0, limits::kMaxSharedBytesPerBlock)) return refuse();
            (key == kStaticShared ? shape_.static_shared_bytes : shape_.dynamic_shared_bytes) =
                static_cast<double>(static_cast<int64_t>(*number));
            return true;
          default: return refuse();  // grid or block given as a number
        }
      }
      case Where::grid:
      case Where::block: {
        const bool grid = stack_[depth_ - 1] == Where::grid;
        const double(&max)[3] = grid ? limits::kMaxGrid : limits::kMaxBlock;
        if (dimension_ >= 3 || !number || !is_whole(*number, 1, max[dimension_])) return refuse();
        (grid ? shape_.grid : shape_.block)[dimension_++] = static_cast<double>(static_cast<int64_t>(*number));
        return true;
      }
    }
    return refuse();
  }

  bool counter(const double* number) {
    if (const auto canonical = canonical_thesis_counter(key_)) {
      if (!number || !is_non_negative(*number)) return refuse();
      for (size_t i = 0; i < std::size(kThesisFields); ++i) {
        if (kThesisFields[i].first != *canonical) continue;
        if (!first_time(thesis_seen_, 1u << i)) return refuse();  // two spellings of one counter
        counters_.thesis.*kThesisFields[i].second = *number;
        return true;
      }
      return refuse();
    }
    if (!number) {  // not a number: not a counter, ignored as the checked reader does
      ignored_counter_keys_.push_back(key_);
      return true;
    }
    if (!is_non_negative(*number)) return refuse();
    return counters_.extra.try_emplace(key_, *number).second || refuse();
  }

  bool push(Where where) {
    if (depth_ == stack_.size()) return refuse();
    stack_[depth_++] = where;
    return true;
  }

  bool open(bool object) {
    if (skip_depth_ > 0) {
      ++skip_depth_;
      return true;
    }
    if (depth_ == 0) return object ? push(Where::kernel) : refuse();
    switch (stack_[depth_ - 1]) {
      case Where::kernel: {
        const unsigned key = kernel_key(key_);
        if (key == 0) {
          skip_depth_ = 1;
          return true;
        }
        if (!first_time(kernel_seen_, key)) return refuse();
        if (key == kByDevice && object) return push(Where::by_device);
        if (key == kShapes && !object) return push(Where::shapes);
        if (key == kCounters && object) return push(Where::counters);
        if (key == kParameters && object) return push(Where::parameters);
        return refuse();
      }
      case Where::counters:
        if (canonical_thesis_counter(key_)) return refuse();
        ignored_counter_keys_.push_back(key_);
        skip_depth_ = 1;
        return true;
      case Where::parameters:
        if (parameter_key(key_) != 0) return refuse();
        skip_depth_ = 1;
        return true;
      case Where::shapes:
        if (!object) return refuse();
        shape_ = LaunchShape();
        shape_seen_ = 0;
        return push(Where::shape);
      case Where::shape: {
        const unsigned key = shape_key(key_);
        if (key == 0) {
          skip_depth_ = 1;
          return true;
        }
        if (!first_time(shape_seen_, key) || object || (key != kGrid && key != kBlock)) return refuse();
        dimension_ = 0;
        return push(key == kGrid ? Where::grid : Where::block);
      }
      case Where::by_device:
      case Where::grid:
      case Where::block: return refuse();
    }
    return refuse();
  }

  bool close() {
    if (skip_depth_ > 0) {
      --skip_depth_;
      return true;
    }
    const Where where = stack_[--depth_];
    switch (where) {
      case Where::kernel: {
        const bool counters = kernel_seen_ & kCounters, parameters = kernel_seen_ & kParameters;
        if (!(kernel_seen_ & kName) || counters == parameters) return refuse();
        done_ = true;
        return true;
      }
      case Where::counters: {
        if (thesis_seen_ != kAllThesisFields || find_problem(counters_.thesis)) return refuse();
        for (const auto& key : ignored_counter_keys_)
          if (counters_.extra.contains(key)) return refuse();
        record_.description = std::move(counters_);
        return true;
      }
      case Where::parameters:
        if (parameters_seen_ != kAllParameterKeys || find_problem(parameters_)) return refuse();
        record_.description = parameters_;
        return true;
      case Where::shape:
        if ((shape_seen_ & (kGrid | kBlock)) != (kGrid | kBlock) ||
            shape_.threads_per_block() > limits::kMaxThreadsPerBlock)
          return refuse();
        record_.launch_shapes.push_back(shape_);
        return true;
      case Where::grid:
      case Where::block: return dimension_ == 3 || refuse();
      case Where::by_device:
      case Where::shapes: return true;
    }
    return refuse();
  }

  KernelRecord record_;
  KernelCounters counters_;
  KernelParameters parameters_;
  LaunchShape shape_;
  std::vector<std::string> ignored_counter_keys_;
  std::string key_;
  std::array<Where, 4> stack_{};
  size_t depth_ = 0;
  size_t skip_depth_ = 0;
  size_t dimension_ = 0;
  unsigned kernel_seen_ = 0, thesis_seen_ = 0, parameters_seen_ = 0, shape_seen_ = 0;
  bool ok_ = true;
  bool done_ = false;
};

// The events of one parsed value, in document order (duplicate keys included), as nlohmann's
// SAX parser gives them. With `check_utf8`, strings are checked for UTF-8 again: the checked
// reader refuses an escaped lone surrogate, which simdjson may decode.
bool walk(simdjson::dom::element value, KernelSax& sax, std::string& text, bool check_utf8) {
  using simdjson::dom::element_type;
  switch (value.type()) {
    case element_type::OBJECT: {
      if (!sax.start_object()) return false;
      const simdjson::dom::object object = value.get_object().value_unsafe();
      for (const auto field : object) {
        if (check_utf8 && !simdjson::validate_utf8(field.key.data(), field.key.size())) return false;
        if (!sax.key(field.key) || !walk(field.value, sax, text, check_utf8)) return false;
      }
      return sax.end_object();
    }
    case element_type::ARRAY: {
      if (!sax.start_array()) return false;
      const simdjson::dom::array array = value.get_array().value_unsafe();
      for (const auto element : array)
        if (!walk(element, sax, text, check_utf8)) return false;
      return sax.end_array();
    }
    case element_type::INT64: return sax.number(static_cast<double>(value.get_int64().value_unsafe()));
    case element_type::UINT64: return sax.number(static_cast<double>(value.get_uint64().value_unsafe()));
    case element_type::DOUBLE: return sax.number(value.get_double().value_unsafe());
    case element_type::STRING: {
      const std::string_view view = value.get_string().value_unsafe();
      if (check_utf8 && !simdjson::validate_utf8(view.data(), view.size())) return false;
      text.assign(view);
      return sax.string(text);
    }
    case element_type::BOOL: return sax.boolean(value.get_bool().value_unsafe());
    case element_type::NULL_VALUE: return sax.null();
  }
  return false;
}

}  // namespace

std::optional<KernelRecord> read_well_formed_kernel(std::string_view kernel_json) {
  // One parser per thread: it keeps its buffers from one kernel to the next.
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(kernel_json.data(), kernel_json.size()).get(root) != simdjson::SUCCESS) return std::nullopt;
  KernelSax sax;
  std::string text;
  // simdjson has checked the text's UTF-8: only a \u escape makes a string that may not be
  // (a lone surrogate), so strings are checked again only in a kernel with one.
  const bool unicode_escapes = kernel_json.find("\\u") != std::string_view::npos;
  if (!walk(root, sax, text, unicode_escapes)) return std::nullopt;
  return sax.take();
}

}  // namespace roofcast
