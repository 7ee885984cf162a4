#include "roofcast/model/for_each_parallel.hpp"

#include <exception>
#include <vector>

#include <tbb/parallel_for.h>

namespace roofcast {

void for_each_parallel(size_t count, const std::function<void(size_t)>& body) {
  // Each body's error is kept, not let through: oneTBB would rethrow whichever came first in
  // time and cancel the rest, and the error a caller sees would change from run to run.
  std::vector<std::exception_ptr> errors(count);
  tbb::parallel_for(size_t{0}, count, [&](size_t i) {
    try {
      body(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace roofcast
