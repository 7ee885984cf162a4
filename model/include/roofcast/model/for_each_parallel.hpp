#pragma once

#include <cstddef>
#include <functional>

namespace roofcast {

// Runs body(0) ... body(count - 1), each index once, on oneTBB's threads (tbb::parallel_for),
// for work whose order does not matter. When bodies throw, rethrows the error of the lowest
// index that threw (the one a single thread would have met first), after every body has run.
void for_each_parallel(size_t count, const std::function<void(size_t)>& body);

}  // namespace roofcast
