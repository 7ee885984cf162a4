#pragma once

#include <cstddef>
#include <functional>

namespace roofcast {

// Runs body(0) ... body(count - 1) on up to hardware_concurrency() threads, each index once.
// When bodies throw, rethrows the error of the lowest index that threw (the one a single
// thread would have met first), after every thread has stopped.
void for_each_parallel(size_t count, const std::function<void(size_t)>& body);

}  // namespace roofcast
