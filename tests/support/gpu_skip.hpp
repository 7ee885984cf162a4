#pragma once
// A GPU test that cannot run some of its checks on this machine (a workload for another
// architecture, a missing Python package, an architecture the peak table lacks) says so here
// and returns: the test program then exits 77, which CTest reports as SKIP (SKIP_RETURN_CODE),
// unless a check failed, which fails it. A skip never counts as a pass.
#include <string>

namespace roofcast::testing {

// Records why checks of the running test case were not run; printed as "SKIP: <reason>".
void skip_checks(const std::string& reason);

}  // namespace roofcast::testing
