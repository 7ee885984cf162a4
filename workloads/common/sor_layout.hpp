#pragma once
// The color-reordered layout shared by the SOR workloads: an N x N grid whose points of
// one color sit in a compact N x N/2 array, point (i, j) at index i * N/2 + j / 2.

#include <cuda_runtime_api.h>

namespace roofcast::workloads {

// One thread per compact point; the interior check is the kernel's.
inline dim3 sor_grid(int n, dim3 block) {
  return dim3(static_cast<unsigned>((n / 2 + block.x - 1) / block.x), static_cast<unsigned>((n + block.y - 1) / block.y));
}

}  // namespace roofcast::workloads
