#include <catch2/catch.hpp>

#include "roofcast/model/transfers.hpp"

TEST_CASE("a transfer costs its latency per copy plus its bytes over the bandwidth") {
  // 10 copies of 1 MB each at 20 GB/s with 10 us latency: 10 x 0.01 ms + 10e6 B / 20e9 B/s = 0.1 + 0.5 ms.
  CHECK(roofcast::predict_transfer_ms({20, 10}, 10e6, 10) == Approx(0.6));
  CHECK(roofcast::transfer_key(roofcast::TransferKind::host_to_device, true) == "h2d_pinned");
  CHECK(roofcast::transfer_key(roofcast::TransferKind::device_to_host, false) == "d2h_pageable");
  CHECK(roofcast::transfer_key(roofcast::TransferKind::device_to_device, false) == "d2d");
  CHECK(roofcast::transfer_kind_from_string("d2h") == roofcast::TransferKind::device_to_host);
  CHECK_FALSE(roofcast::transfer_kind_from_string("x"));
}
