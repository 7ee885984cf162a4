#include "roofcast/formats/profile_json_fast_path.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <exception>
#include <system_error>
#include <thread>
#include <unordered_set>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "roofcast/formats/kernel_json_sax.hpp"

namespace roofcast {

namespace {

// Below this many kernels per thread, starting a thread costs more than it saves.
constexpr size_t kMinKernelsPerThread = 2000;
constexpr unsigned kMaxThreads = 16;

// The bytes the scan of a container stops at: quotes and brackets.
constexpr std::array<char, 5> kStructural = {'"', '{', '}', '[', ']'};
// The bytes the scan of a string stops at.
constexpr std::array<char, 2> kQuoteOrBackslash = {'"', '\\'};

// The first position from `i` whose byte is one of `stops`, or text.size(). The whole profile
// (88 MB for 100,000 kernels) is scanned on one thread before its kernels are read on every core:
// 16 bytes at a time where SSE2 is there.
template <size_t N>
size_t next_of(std::string_view text, size_t i, const std::array<char, N>& stops) {
#if defined(__SSE2__)
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    __m128i found = _mm_setzero_si128();
    for (const char stop : stops) found = _mm_or_si128(found, _mm_cmpeq_epi8(block, _mm_set1_epi8(stop)));
    if (const int mask = _mm_movemask_epi8(found); mask != 0)
      return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)));
  }
#endif
  for (; i < text.size(); ++i)
    if (std::find(stops.begin(), stops.end(), text[i]) != stops.end()) return i;
  return text.size();
}

// A cursor over the text that knows JSON's strings and brackets and nothing else.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  size_t position() const { return i_; }
  bool at_end() const { return i_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[i_]; }
  void advance() { ++i_; }

  void skip_whitespace() {
    while (i_ < text_.size() && (text_[i_] == ' ' || text_[i_] == '\n' || text_[i_] == '\r' || text_[i_] == '\t')) ++i_;
  }

  // Past the string that starts here; false when it does not end. `escaped` tells whether it
  // holds a backslash.
  bool skip_string(bool* escaped = nullptr) {
    ++i_;  // the opening quote
    while (i_ < text_.size()) {
      i_ = next_of(text_, i_, kQuoteOrBackslash);
      if (i_ >= text_.size()) break;
      const char c = text_[i_];
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c == '\\') {
        if (escaped) *escaped = true;
        i_ += 2;
      } else {
        ++i_;
      }
    }
    return false;
  }

  // Past the value that starts here (not checked: nlohmann parses it later); false when it
  // does not end or is empty.
  bool skip_value() {
    const char first = peek();
    if (first == '"') return skip_string();
    if (first == '{' || first == '[') {
      size_t depth = 0;
      while (i_ < text_.size()) {
        i_ = next_of(text_, i_, kStructural);
        if (i_ >= text_.size()) return false;
        const char c = text_[i_];
        if (c == '"') {
          if (!skip_string()) return false;
          continue;
        }
        ++i_;
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) return true;
      }
      return false;
    }
    const size_t start = i_;
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '"' ||
          c == '{' || c == '[')
        break;
      ++i_;
    }
    return i_ > start;
  }

  std::string_view slice(size_t begin, size_t end) const { return text_.substr(begin, end - begin); }

 private:
  std::string_view text_;
  size_t i_ = 0;
};

// The elements of the array that starts here; false for an empty array or a malformed list.
bool split_array(Scanner& scan, std::vector<std::string_view>& elements) {
  scan.advance();  // '['
  while (true) {
    scan.skip_whitespace();
    const size_t begin = scan.position();
    if (!scan.skip_value()) return false;
    elements.push_back(scan.slice(begin, scan.position()));
    scan.skip_whitespace();
    const char next = scan.peek();
    scan.advance();
    if (next == ']') return true;
    if (next != ',') return false;
  }
}

}  // namespace

std::optional<KernelArrayText> split_kernel_array(std::string_view text) {
  Scanner scan(text);
  scan.skip_whitespace();
  if (scan.peek() != '{') return std::nullopt;
  scan.advance();
  std::optional<KernelArrayText> found;
  scan.skip_whitespace();
  if (scan.peek() == '}') return std::nullopt;
  while (true) {
    scan.skip_whitespace();
    if (scan.peek() != '"') return std::nullopt;
    const size_t key_begin = scan.position();
    bool escaped = false;
    if (!scan.skip_string(&escaped) || escaped) return std::nullopt;
    const std::string_view key = scan.slice(key_begin + 1, scan.position() - 1);
    scan.skip_whitespace();
    if (scan.peek() != ':') return std::nullopt;
    scan.advance();
    scan.skip_whitespace();
    if (key == "kernels") {
      if (found || scan.peek() != '[') return std::nullopt;
      found.emplace();
      found->begin = scan.position();
      if (!split_array(scan, found->elements)) return std::nullopt;
      found->end = scan.position();
    } else if (!scan.skip_value()) {
      return std::nullopt;
    }
    scan.skip_whitespace();
    const char next = scan.peek();
    scan.advance();
    if (next == '}') break;
    if (next != ',') return std::nullopt;
  }
  scan.skip_whitespace();
  if (!scan.at_end()) return std::nullopt;
  return found;
}

std::optional<std::vector<KernelRecord>> read_well_formed_kernels(const KernelArrayText& array, unsigned threads) {
  const size_t count = array.elements.size();
  const size_t parts = std::clamp<size_t>(std::min<size_t>(threads, count / kMinKernelsPerThread), 1, kMaxThreads);
  std::vector<KernelRecord> kernels(count);
  std::atomic<bool> refused = false;
  auto read_part = [&](size_t part) {
    try {
      for (size_t i = count * part / parts; i < count * (part + 1) / parts; ++i) {
        if (refused.load(std::memory_order_relaxed)) return;
        auto record = read_well_formed_kernel(array.elements[i]);
        if (!record) {
          refused = true;
          return;
        }
        kernels[i] = std::move(*record);
      }
    } catch (const std::exception&) {  // out of memory: the checked reader will say
      refused = true;
    }
  };
  std::vector<std::thread> workers;
  std::vector<size_t> not_started;
  for (size_t part = 1; part < parts; ++part) {
    try {
      workers.emplace_back(read_part, part);
    } catch (const std::system_error&) {
      not_started.push_back(part);
    }
  }
  read_part(0);
  for (const size_t part : not_started) read_part(part);
  for (auto& worker : workers) worker.join();
  if (refused) return std::nullopt;

  std::unordered_set<std::string_view> names;  // a name listed twice: the checked reader names both
  names.reserve(count);
  for (const auto& kernel : kernels)
    if (!names.insert(kernel.name).second) return std::nullopt;
  return kernels;
}

}  // namespace roofcast
