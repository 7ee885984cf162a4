#pragma once

#include <stdexcept>
#include <string>

#include <cupti.h>

namespace roofcast::profiler {

// A failed CUPTI call: what was being done, and CUPTI's own words for the result.
class CuptiError : public std::runtime_error {
 public:
  CuptiError(const std::string& what, CUptiResult result);
  CUptiResult result() const { return result_; }

 private:
  CUptiResult result_;
};

// CUPTI's name for a result code, with advice for the results users can fix themselves
// (counter permissions, another profiler attached, no GPU).
std::string describe_cupti_result(CUptiResult result);

// Throws CuptiError when `result` is not CUPTI_SUCCESS.
void check_cupti(CUptiResult result, const char* call);

}  // namespace roofcast::profiler
