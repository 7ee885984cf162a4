#include "roofcast/formats/profile_json_fast_path.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <deque>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <tbb/parallel_sort.h>
#include <tbb/task_group.h>

#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/kernel_json_sax.hpp"

namespace roofcast {

namespace {

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

  // Past the string that starts here; false when it does not end or is longer than a profile's
  // strings may be (the checked reader then names it). `escaped` tells whether it holds a
  // backslash.
  bool skip_string(bool* escaped = nullptr) {
    const size_t start = ++i_;  // past the opening quote
    while (i_ < text_.size()) {
      i_ = next_of(text_, i_, kQuoteOrBackslash);
      if (i_ >= text_.size()) break;
      const char c = text_[i_];
      if (c == '"') {
        ++i_;
        return i_ - 1 - start <= input_limits::kMaxProfileStringBytes;
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

// Each element of the array that starts here to `element`; false for an empty array or a
// malformed list.
template <typename Element>
bool split_array(Scanner& scan, Element& element) {
  scan.advance();  // '['
  while (true) {
    scan.skip_whitespace();
    const size_t begin = scan.position();
    if (!scan.skip_value()) return false;
    element(scan.slice(begin, scan.position()));
    scan.skip_whitespace();
    const char next = scan.peek();
    scan.advance();
    if (next == ']') return true;
    if (next != ',') return false;
  }
}

// split_kernel_array, each element to `element` as it is found.
template <typename Element>
std::optional<KernelArrayText> scan_kernel_array(std::string_view text, Element& element) {
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
      if (!split_array(scan, element)) return std::nullopt;
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

// Reads kernels' texts as they are added, a chunk at a time, each chunk a task of oneTBB's
// (tbb::task_group) on whichever core is free; finish() waits for them. The reads of the first
// kernels overlap the scan that finds the last ones.
class KernelReaders {
 public:
  KernelReaders() { filling_.reserve(kChunk); }
  KernelReaders(const KernelReaders&) = delete;
  KernelReaders& operator=(const KernelReaders&) = delete;
  ~KernelReaders() {
    refused_ = true;  // abandoned: what is left is not read
    tasks_.wait();
  }

  void add(std::string_view element) {
    filling_.push_back(element);
    if (filling_.size() == kChunk) publish();
  }

  // The kernels in the order they were added; nullopt if any is refused or a name is listed twice.
  std::optional<std::vector<KernelRecord>> finish() {
    if (!filling_.empty()) publish();
    tasks_.wait();
    if (refused_) return std::nullopt;
    std::vector<KernelRecord> kernels;
    kernels.reserve(added_);
    for (auto& chunk : chunks_) {
      for (auto& kernel : chunk.kernels) kernels.push_back(std::move(kernel));
      std::vector<KernelRecord>().swap(chunk.kernels);  // given back as the kernels move (see kChunk)
    }
    // A name listed twice: the checked reader names both. Sorted on every core (100,000 names).
    std::vector<std::string_view> names;
    names.reserve(kernels.size());
    for (const auto& kernel : kernels) names.emplace_back(kernel.name);
    tbb::parallel_sort(names.begin(), names.end());
    if (std::adjacent_find(names.begin(), names.end()) != names.end()) return std::nullopt;
    return kernels;
  }

 private:
  // Kernels read by one task: enough that a chunk's records (~270 KB) are mapped apart by
  // malloc and given back when moved into the profile's vector, which then does not hold the
  // memory of every record twice.
  static constexpr size_t kChunk = 1024;
  struct Chunk {
    std::vector<std::string_view> elements;
    std::vector<KernelRecord> kernels;
  };

  void publish() {
    added_ += filling_.size();
    // A deque: the chunks being read stay where they are as more are added.
    Chunk& chunk = chunks_.emplace_back(Chunk{std::exchange(filling_, {}), {}});
    filling_.reserve(kChunk);
    tasks_.run([this, &chunk] { read(chunk); });
  }

  void read(Chunk& chunk) {
    try {
      chunk.kernels.reserve(chunk.elements.size());
      for (const auto element : chunk.elements) {
        if (refused_.load(std::memory_order_relaxed)) return;
        auto record = read_well_formed_kernel(element);
        if (!record) {
          refused_ = true;
          return;
        }
        chunk.kernels.push_back(std::move(*record));
      }
    } catch (...) {  // out of memory: the checked reader will say
      refused_ = true;
    }
  }

  std::vector<std::string_view> filling_;  // the chunk being added to
  size_t added_ = 0;                       // elements published
  std::deque<Chunk> chunks_;
  std::atomic<bool> refused_ = false;
  tbb::task_group tasks_;
};

}  // namespace

std::optional<KernelArrayText> split_kernel_array(std::string_view text) {
  std::vector<std::string_view> elements;
  auto element = [&](std::string_view e) { elements.push_back(e); };
  auto found = scan_kernel_array(text, element);
  if (found) found->elements = std::move(elements);
  return found;
}

std::optional<KernelArray> read_kernel_array(std::string_view text) {
  KernelReaders readers;
  auto element = [&](std::string_view e) { readers.add(e); };
  const auto found = scan_kernel_array(text, element);
  if (!found) return std::nullopt;
  auto kernels = readers.finish();
  if (!kernels) return std::nullopt;
  return KernelArray{found->begin, found->end, std::move(*kernels)};
}

std::optional<std::vector<KernelRecord>> read_well_formed_kernels(const KernelArrayText& array) {
  KernelReaders readers;
  for (const auto element : array.elements) readers.add(element);
  return readers.finish();
}

}  // namespace roofcast
