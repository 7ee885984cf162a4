#pragma once

#include <cstddef>
#include <algorithm>
#include <functional>
#include <iterator>
#include <vector>

namespace roofcast {

// Runs body(0) ... body(count - 1), each index once, on oneTBB's threads (tbb::parallel_for),
// for work whose order does not matter. When bodies throw, rethrows the error of the lowest
// index that threw (the one a single thread would have met first), after every body has run.
void for_each_parallel(size_t count, const std::function<void(size_t)>& body);

// Items 0 ... count - 1 made on every core in parts of `per_part` items: `make(first, last, part)`
// makes items [first, last) into `part`. The parts come in the items' order (text to join, rows
// to write), the first error in that order as for_each_parallel.
template <class Part>
std::vector<Part> parts_in_parallel(size_t count, size_t per_part,
                                    const std::function<void(size_t, size_t, Part&)>& make) {
  std::vector<Part> parts((count + per_part - 1) / per_part);
  for_each_parallel(parts.size(), [&](size_t i) { make(i * per_part, std::min(count, (i + 1) * per_part), parts[i]); });
  return parts;
}

// parts_in_parallel for parts that are vectors: their elements joined, in the items' order.
template <class T>
std::vector<T> joined_in_parallel(size_t count, size_t per_part,
                                  const std::function<void(size_t, size_t, std::vector<T>&)>& make) {
  std::vector<std::vector<T>> parts = parts_in_parallel<std::vector<T>>(count, per_part, make);
  std::vector<T> joined;
  for (auto& part : parts) std::move(part.begin(), part.end(), std::back_inserter(joined));
  return joined;
}

}  // namespace roofcast
