#include "roofcast/output/prediction_output.hpp"

#include <cmath>
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <span>
#include <utility>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/model/for_each_parallel.hpp"
#include "roofcast/output/json_writer.hpp"
#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"

namespace roofcast {

namespace {

using namespace json_literals;

std::string fixed(double value, int digits) {
  if (std::isinf(value)) return "inf";
  return fmt::format(FMT_COMPILE("{:.{}f}"), value, digits);
}
std::string percent(double fraction) { return fixed(100 * fraction, 2); }
std::string optional_fixed(const std::optional<double>& value, int digits) {
  return value ? fixed(*value, digits) : "-";
}
std::string signed_percent(const std::optional<double>& fraction) {
  return fraction ? fmt::format(FMT_COMPILE("{:+.2f}"), 100 * *fraction) : "-";
}
// A pipes row's number cell, formatted into a buffer of its own rather than a std::string (a
// table of a million rows): fmt writes to a char array faster than through a string's inserter.
class NumberCell {
 public:
  template <typename Format>
  NumberCell(Format format, double value) {
    size_ = static_cast<size_t>(fmt::format_to_n(text_.data(), text_.size(), format, value).out - text_.data());
  }
  explicit NumberCell(std::string_view text) : size_(text.copy(text_.data(), text_.size())) {}
  operator std::string_view() const { return {text_.data(), size_}; }

 private:
  std::array<char, 32> text_{};  // "{:#.4g}" and "{:+.1f}" of a double: at most 26 chars
  size_t size_ = 0;
};

NumberCell ms(double value) { return NumberCell(FMT_COMPILE("{:#.4g}"), value); }
NumberCell optional_ms(const std::optional<double>& value) { return value ? ms(*value) : NumberCell("-"); }
NumberCell error_percent(const std::optional<double>& error) {
  return error ? NumberCell(FMT_COMPILE("{:+.1f}"), 100 * *error) : NumberCell("-");
}

// The columns and cells each model shows in the table; the rest is common to every model. Every
// time is the total over the kernel's profiled launches (`launches`); JSON and CSV add per launch.
std::vector<Table::Column> kernel_columns(const std::string& model, bool corrected) {
  if (model == "thesis") {
    std::vector<Table::Column> columns = {{"kernel", false}, {"device", false},  {"id", false},  {"launches"},
                                          {"type", false},   {"bound", false},   {"E_mix %"},    {"E_instr %"},
                                          {"T'_op G/s"},     {"O_krn"},          {"O_dev"},      {"predicted ms total"}};
    if (corrected) columns.insert(columns.end(), {{"E_util"}, {"corrected ms total"}});
    columns.insert(columns.end(), {{"measured ms total"}, {"error %"}});
    if (corrected) columns.push_back({"corrected error %"});
    return columns;
  }
  return {{"kernel", false},        {"device", false},          {"id", false},
          {"launches"},             {"limiter", false},         {"compute ms total"},
          {"memory ms total"},      {"launch ms total"},        {"predicted ms total"},
          {"calibrated ms total"},  {"measured ms total"},      {"error %"}};
}

// A kernel's name as the table shows it (shortened_kernel_name), made once for its rows on
// every device rather than for each of a million rows.
class ShownKernelName {
 public:
  std::string_view of(const std::string& kernel) {
    if (kernel != kernel_) {
      kernel_ = kernel;
      shown_ = shortened_kernel_name(kernel);
    }
    return shown_;
  }

 private:
  std::string kernel_, shown_;
};

void add_kernel_row(const KernelPrediction& p, bool corrected, ShownKernelName& name, Table& table) {
  if (const ThesisPrediction* t = p.prediction.thesis()) {
    std::vector<std::string> row = {std::string(name.of(p.kernel)), p.device, p.device_id,
                                    fmt::format("{}", p.invocations), std::string(to_string(p.parameters.type)),
                                    to_string(t->bound), percent(p.parameters.E_mix),
                                    percent(t->E_instr), fixed(t->T_op_adjusted, 2),
                                    fixed(t->O_krn, 2), fixed(t->O_dev, 2), fixed(t->predicted_ms, 3)};
    if (corrected) {
      row.push_back(optional_fixed(p.E_util, 3));
      row.push_back(optional_fixed(p.corrected_ms, 3));
    }
    row.push_back(optional_fixed(p.measured_ms, 3));
    row.push_back(signed_percent(p.error));
    if (corrected) row.push_back(signed_percent(p.corrected_error));
    table.add_row(row);
    return;
  }
  const PipesPrediction& r = *p.prediction.pipes();
  table.add_row({name.of(p.kernel), p.device, p.device_id, NumberCell(FMT_COMPILE("{}"), static_cast<double>(p.invocations)),
                 r.limiter, ms(r.compute_ms), ms(r.memory_ms),
                 ms(r.launch_ms), ms(r.predicted_ms), optional_ms(p.corrected_ms), optional_ms(p.measured_ms),
                 error_percent(p.error)});
}

Table totals_table(const std::vector<DeviceTotal>& device_totals, bool corrected) {
  Table totals;
  totals.columns = {{"device", false}, {"id", false},           {"kernels"},
                    {"memory bound"},  {"compute bound"},        {"predicted ms total"}};
  if (corrected) totals.columns.push_back({"corrected ms total"});
  totals.columns.push_back({"measured ms total"});
  for (const auto& t : device_totals) {
    std::vector<std::string> row = {t.device, t.device_id, fmt::format("{}", t.memory_bound_kernels + t.compute_bound_kernels),
                                    fmt::format("{}", t.memory_bound_kernels),
                                    fmt::format("{}", t.compute_bound_kernels), fixed(t.predicted_ms, 3)};
    if (corrected) row.push_back(optional_fixed(t.corrected_ms, 3));
    row.push_back(optional_fixed(t.measured_ms, 3));
    totals.add_row(row);
  }
  return totals;
}

struct TableRows : PredictionRows {
  TableRows(const std::vector<Table::Column>& columns, bool corrected) : corrected(corrected) {
    table.columns = columns;
  }
  void add(const KernelPrediction& p) override { add_kernel_row(p, corrected, kernel_name, table); }

  Table table;
  bool corrected;
  ShownKernelName kernel_name;
};

// The aligned table, or with `markdown` a markdown table (the same cells). The rows are kept
// as they came, one Table per range of kernels: their widths and lines are made on every core.
class PredictionTablePrinter : public PredictionPrinter {
 public:
  PredictionTablePrinter(std::ostream& out, const std::string& model, bool corrected, bool markdown)
      : out_(out), corrected_(corrected), markdown_(markdown), columns_(kernel_columns(model, corrected)) {}
  void add(const KernelPrediction& p) override {
    if (parts_.empty()) parts_.push_back(std::make_unique<Table>(empty_table()));
    add_kernel_row(p, corrected_, kernel_name_, *parts_.back());
  }
  std::unique_ptr<PredictionRows> rows() const override { return std::make_unique<TableRows>(columns_, corrected_); }
  void write(PredictionRows& rows) override {
    Table& table = static_cast<TableRows&>(rows).table;
    parts_.push_back(std::make_unique<Table>(std::exchange(table, empty_table())));
  }
  void finish(const std::vector<DeviceTotal>& device_totals) override {
    const Table totals = totals_table(device_totals, corrected_);
    if (markdown_) {
      Table table = empty_table();
      for (const auto& part : parts_) table.append(*part);
      out_ << render_markdown(table) << "\n**Totals per device**\n\n" << render_markdown(totals);
      return;
    }
    write_table();
    out_ << "\nTotals per device\n";
    write_text(totals, out_);
  }

 private:
  Table empty_table() const {
    Table table;
    table.columns = columns_;
    return table;
  }
  // The widths of every part on every core, then their lines on every core, written in order;
  // a part's cells are let go once its lines are made, and only a few parts' lines are held.
  void write_table() {
    const Table header = empty_table();
    std::vector<size_t> widths = text_widths(header);
    std::vector<std::vector<size_t>> part_widths(parts_.size());
    for_each_parallel(parts_.size(), [&](size_t i) { part_widths[i] = text_widths(*parts_[i]); });
    for (const auto& w : part_widths)
      for (size_t c = 0; c < widths.size(); ++c) widths[c] = std::max(widths[c], w[c]);
    std::string text;
    append_text_header(header, widths, text);
    out_ << text;
    size_t next = 0;
    auto take_next_part = [&](tbb::flow_control& control) -> size_t {
      if (next == parts_.size()) control.stop();  // what it returns then is not used
      return next++;
    };
    auto make_lines = [&](size_t i) {
      std::string lines;
      append_text_rows(*parts_[i], widths, lines);
      parts_[i].reset();
      return lines;
    };
    tbb::parallel_pipeline(4 * static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency())),
                           tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order, take_next_part) &
                               tbb::make_filter<size_t, std::string>(tbb::filter_mode::parallel, make_lines) &
                               tbb::make_filter<std::string, void>(tbb::filter_mode::serial_in_order,
                                                                   [&](const std::string& lines) { out_ << lines; }));
  }

  std::ostream& out_;
  bool corrected_;
  bool markdown_;
  std::vector<Table::Column> columns_;
  std::vector<std::unique_ptr<Table>> parts_;
  ShownKernelName kernel_name_;
};

// One prediction's CSV row (the header's columns, formats.md), appended to `text`.
void append_csv_prediction(const KernelPrediction& p, std::string& text) {
  CsvLine line(text);
  line.cell(p.kernel).cell(p.device).cell(p.device_id);
  if (const ThesisPrediction* t = p.prediction.thesis()) {
    const auto& k = p.parameters;
    line.cell(to_string(k.type)).cell(to_string(t->bound)).number(t->predicted_ms).optional_number(p.measured_ms);
    line.optional_number(p.error).optional_number(p.E_util).optional_number(p.corrected_ms);
    line.optional_number(p.corrected_error);
    for (const double value : {k.W_comp, k.W_traf, k.E_mix, k.D_ops, k.D_ldst, k.D_other(), t->T_op, t->W_op,
                               t->W_ldst, t->W_other, t->C_op, t->C_ldst, t->C_other, t->E_instr,
                               t->T_op_adjusted, t->O_krn, t->O_dev, t->T_predicted})
      line.number(value);
  } else {
    const PipesPrediction& r = *p.prediction.pipes();
    line.cell(r.limiter).cell(to_string(r.bound));
    for (const double value : {r.compute_ms, r.memory_ms, r.latency.ms, r.dispatch_ms, r.compute_wave_factor,
                               r.launch_ms, r.predicted_ms})
      line.number(value);
    line.optional_number(p.corrected_ms).optional_number(p.measured_ms);
  }
  // The times above are totals over the kernel's profiled launches; per launch as well.
  line.number(static_cast<double>(p.invocations)).number(p.per_launch(p.predicted_ms()));
  line.optional_number(p.measured_ms ? std::optional(p.per_launch(*p.measured_ms)) : std::nullopt);
  line.end();
}

struct CsvRows : PredictionRows {
  void add(const KernelPrediction& p) override { append_csv_prediction(p, text); }
  std::string text;
};

class PredictionCsvPrinter : public PredictionPrinter {
 public:
  PredictionCsvPrinter(std::ostream& out, const std::string& model) : out_(out), csv_(out) {
    if (model == "thesis")
      csv_.write_row({"kernel", "device", "device_id", "K_type", "bound", "predicted_ms", "measured_ms", "error",
                      "E_util", "corrected_ms", "corrected_error", "W_comp", "W_traf", "E_mix", "D_ops", "D_ldst",
                      "D_other", "T_op", "W_op", "W_ldst", "W_other", "C_op", "C_ldst", "C_other", "E_instr",
                      "T_op_adjusted", "O_krn", "O_dev", "T_predicted", "invocations", "predicted_ms_per_launch",
                      "measured_ms_per_launch"});
    else
      csv_.write_row({"kernel", "device", "device_id", "limiter", "bound", "compute_ms", "memory_ms", "latency_ms",
                      "dispatch_ms", "compute_wave_factor", "launch_ms", "predicted_ms", "calibrated_ms",
                      "measured_ms", "invocations", "predicted_ms_per_launch", "measured_ms_per_launch"});
  }
  void add(const KernelPrediction& p) override {
    std::string text;
    append_csv_prediction(p, text);
    csv_.flush();
    out_ << text;
  }
  std::unique_ptr<PredictionRows> rows() const override { return std::make_unique<CsvRows>(); }
  void write(PredictionRows& rows) override {
    csv_.flush();
    std::string& text = static_cast<CsvRows&>(rows).text;
    out_.write(text.data(), static_cast<std::streamsize>(text.size()));
    text.clear();
  }
  void finish(const std::vector<DeviceTotal>&) override { csv_.flush(); }

 private:
  std::ostream& out_;
  CsvWriter csv_;
};

void write_numbers(JsonWriter& json, const JsonKey& key, const std::map<std::string, double>& numbers) {
  json.key(key);
  json.begin_object();
  for (const auto& [name, value] : numbers) json.member(name, value);
  json.end_object();
}
// Named numbers for a JSON object, up to 16 held in place (a prediction's costs need no
// allocation), more on the heap.
using NamedNumber = std::pair<std::string_view, double>;
class NamedNumbers {
 public:
  explicit NamedNumbers(size_t capacity) {
    if (capacity > in_place_.size()) on_heap_.resize(capacity);
  }
  void add(std::string_view name, double value) { data()[size_++] = {name, value}; }
  std::span<NamedNumber> numbers() { return {data(), size_}; }

 private:
  NamedNumber* data() { return on_heap_.empty() ? in_place_.data() : on_heap_.data(); }
  std::array<NamedNumber, 16> in_place_;
  std::vector<NamedNumber> on_heap_;
  size_t size_ = 0;
};
// Named numbers as a JSON object: sorted by name, a later number of the same name replacing an
// earlier one (as std::map would keep them, without building one per prediction).
void write_numbers(JsonWriter& json, const JsonKey& key, std::span<NamedNumber> numbers) {
  const auto by_name = [](const NamedNumber& a, const NamedNumber& b) { return a.first < b.first; };
  if (numbers.size() <= 16) {
    // A few names: sorted in place by insertion (stable as stable_sort, without its buffer).
    for (size_t i = 1; i < numbers.size(); ++i)
      for (size_t j = i; j > 0 && by_name(numbers[j], numbers[j - 1]); --j) std::swap(numbers[j], numbers[j - 1]);
  } else {
    std::stable_sort(numbers.begin(), numbers.end(), by_name);
  }
  json.key(key);
  json.begin_object();
  for (size_t i = 0; i < numbers.size(); ++i)
    if (i + 1 == numbers.size() || numbers[i + 1].first != numbers[i].first)
      json.member(numbers[i].first, numbers[i].second);
  json.end_object();
}
// The latency term: what it is made of where it is modelled, else why it is not.
void write_latency(JsonWriter& json, const LatencyTerm& t) {
  json.key("latency"_key);
  json.begin_object();
  if (!t.modelled) {
    json.member("modelled"_key, false);
    json.member("note"_key, t.note.text());
  } else {
    json.member("instructions_per_warp"_key, t.instructions_per_warp);
    json.member("kind"_key, t.kind);
    json.member("modelled"_key, true);
    json.member("ms"_key, t.ms);
    NamedNumbers parts(t.parts.size());
    for (const auto& part : t.parts) parts.add(part.name, part.ns);
    write_numbers(json, "ns_per_instruction"_key, parts.numbers());
    json.member("resident_warps_per_scheduler"_key, t.resident_warps_per_scheduler);
    // Only where the reference's measured time capped the parts (the reference-time term).
    if (t.uncapped_ns_per_instruction > 0)
      json.member("uncapped_ns_per_instruction"_key, t.uncapped_ns_per_instruction);
    json.member("warps_to_hide_latency"_key, t.warps_to_hide_latency);
    json.member("waves_per_launch"_key, t.waves);
  }
  json.end_object();
}
// Costs by name (a later cost of the same name replaces an earlier one, as in a JSON object).
void write_costs(JsonWriter& json, const JsonKey& key, const std::vector<PipesCost>& costs) {
  NamedNumbers by_name(costs.size());
  for (const auto& c : costs) by_name.add(c.name, c.ms);
  write_numbers(json, key, by_name.numbers());
}

void write_thesis(JsonWriter& json, const KernelParameters& k, const ThesisPrediction& t) {
  json.begin_object();
  json.member("C_ldst"_key, t.C_ldst);
  json.member("C_op"_key, t.C_op);
  json.member("C_other"_key, t.C_other);
  json.member("D_ldst"_key, k.D_ldst);
  json.member("D_ops"_key, k.D_ops);
  json.member("D_other"_key, k.D_other());
  json.member("E_instr"_key, t.E_instr);
  json.member("E_mix"_key, k.E_mix);
  json.member("K_type"_key, to_string(k.type));
  json.member("O_dev"_key, t.O_dev);
  json.member("O_krn"_key, t.O_krn);  // JSON has no infinity: a kernel with no DRAM traffic has O_krn null
  json.member("T_op"_key, t.T_op);
  json.member("T_op_adjusted"_key, t.T_op_adjusted);
  json.member("T_predicted"_key, t.T_predicted);
  json.member("W_comp"_key, k.W_comp);
  json.member("W_ldst"_key, t.W_ldst);
  json.member("W_op"_key, t.W_op);
  json.member("W_other"_key, t.W_other);
  json.member("W_traf"_key, k.W_traf);
  json.end_object();
}
// A kernel's own numbers (pipe instructions, tensor operations) as the last prediction wrote
// them: the same in the kernel's prediction on every device, formatted once.
struct KernelNumbersText {
  std::shared_ptr<const KernelWork> work;  // held: no other kernel's work takes its address
  JsonReplay text;
};
void write_kernel_numbers(JsonWriter& json, const PipesPrediction& r, KernelNumbersText& kept) {
  if (r.work && r.work == kept.work && json.replay(kept.text)) return;
  json.record(kept.text, [&] {
    write_numbers(json, "pipe_instructions"_key, r.kernel_work().pipe_instructions);
    write_numbers(json, "tensor_ops"_key, r.kernel_work().tensor_ops);
  });
  kept.work = r.work;
}
void write_pipes(JsonWriter& json, const PipesPrediction& r, KernelNumbersText& kept) {
  json.begin_object();
  json.member("blocks_per_launch"_key, r.blocks);
  json.member("blocks_per_sm"_key, r.blocks_per_sm);
  write_costs(json, "compute_costs_ms"_key, r.compute);
  json.member("compute_ms"_key, r.compute_ms);
  json.member("compute_wave_factor"_key, r.compute_wave_factor);
  json.member("dispatch_ms"_key, r.dispatch_ms);
  write_latency(json, r.latency);
  json.member("latency_ms"_key, r.latency.ms);
  json.member("launch_ms"_key, r.launch_ms);
  json.member("measured_pipes"_key, r.kernel_work().measured_pipes);
  write_costs(json, "memory_costs_ms"_key, r.memory);
  json.member("memory_ms"_key, r.memory_ms);
  json.key("notes"_key);
  json.begin_array();
  r.for_each_note([&](std::string_view note) { json.value(note); });
  json.end_array();
  json.member("occupancy_limiter"_key, r.occupancy_limiter);
  write_kernel_numbers(json, r, kept);
  json.end_object();
}

void write_prediction(JsonWriter& json, const KernelPrediction& p, KernelNumbersText& kept) {
  json.begin_object();
  json.member("E_util"_key, p.E_util);
  json.member("bound"_key, to_string(p.prediction.bound));
  json.member("corrected_error"_key, p.corrected_error);
  json.member("corrected_ms"_key, p.corrected_ms);
  json.key("details"_key);
  if (const ThesisPrediction* t = p.prediction.thesis()) write_thesis(json, p.parameters, *t);
  if (const PipesPrediction* r = p.prediction.pipes()) write_pipes(json, *r, kept);
  json.member("device"_key, p.device);
  json.member("device_id"_key, p.device_id);
  json.member("error"_key, p.error);
  json.member("invocations"_key, p.invocations);
  json.member("kernel"_key, p.kernel);
  json.member("limiter"_key, p.prediction.limiter);
  json.member("measured_ms"_key, p.measured_ms);
  json.member("measured_ms_per_launch"_key,
              p.measured_ms ? std::optional(p.per_launch(*p.measured_ms)) : std::nullopt);
  json.member("predicted_ms"_key, p.predicted_ms());
  json.member("predicted_ms_per_launch"_key, p.per_launch(p.predicted_ms()));
  json.end_object();
}

// Predictions in the "predictions" array (two levels deep), each after a separator.
struct JsonRows : PredictionRows {
  void add(const KernelPrediction& p) override { write_prediction(json, p, kernel_numbers); }
  JsonWriter json{2};
  KernelNumbersText kernel_numbers;
};

// The document nlohmann::json would write for {"format", "model", "predictions", "profile",
// "totals", "version"}, keys in its (sorted) order (formats.md, prediction version 3).
class PredictionJsonPrinter : public PredictionPrinter {
 public:
  PredictionJsonPrinter(std::ostream& out, std::string profile_source, const std::string& model)
      : out_(out), json_(out), profile_source_(std::move(profile_source)) {
    json_.begin_object();
    json_.member("format"_key, "roofcast-prediction");
    json_.member("model"_key, model);
    json_.key("predictions"_key);
    json_.begin_array();
  }
  void add(const KernelPrediction& p) override { write_prediction(json_, p, kernel_numbers_); }
  std::unique_ptr<PredictionRows> rows() const override { return std::make_unique<JsonRows>(); }
  // The rows' buffer (hundreds of KB) is kept for their next range: it is not allocated, grown
  // and paged in again for every range.
  void write(PredictionRows& rows) override {
    JsonWriter& json = static_cast<JsonRows&>(rows).json;
    JsonText text = json.take_text();
    json_.values_text(text.view());
    json.reuse(std::move(text));
  }
  void finish(const std::vector<DeviceTotal>& totals) override {
    json_.end_array();
    json_.member("profile"_key, profile_source_);
    json_.key("totals"_key);
    json_.begin_array();
    for (const auto& t : totals) {
      json_.begin_object();
      json_.member("compute_bound_kernels"_key, t.compute_bound_kernels);
      json_.member("corrected_ms"_key, t.corrected_ms);
      json_.member("device"_key, t.device);
      json_.member("device_id"_key, t.device_id);
      json_.member("measured_ms"_key, t.measured_ms);
      json_.member("memory_bound_kernels"_key, t.memory_bound_kernels);
      json_.member("predicted_ms"_key, t.predicted_ms);
      json_.end_object();
    }
    json_.end_array();
    json_.member("version"_key, 3);
    json_.end_object();
    out_ << "\n";
  }

 private:
  std::ostream& out_;
  JsonWriter json_;
  KernelNumbersText kernel_numbers_;
  std::string profile_source_;
};

}  // namespace

std::unique_ptr<PredictionPrinter> prediction_printer(const std::string& format, std::ostream& out,
                                                      const std::string& profile_source, const std::string& model,
                                                      bool corrected) {
  if (format == "json") return std::make_unique<PredictionJsonPrinter>(out, profile_source, model);
  if (format == "csv") return std::make_unique<PredictionCsvPrinter>(out, model);
  return std::make_unique<PredictionTablePrinter>(out, model, corrected, format == "markdown");
}

}  // namespace roofcast
