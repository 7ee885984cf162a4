// Held-out (docs/validation/heldout): the assignment step of k-means clustering (Lloyd's
// algorithm) in fp32: every point finds its nearest of 64 centroids in 16 dimensions and
// records the cluster and the squared distance. The centroids are staged in shared memory and
// read by all lanes at once (broadcasts); the work is 2,048 FP32 operations per point against
// the 64 bytes read. The two kernels differ in the points' layout: structure of arrays (dimension
// d of all points together, coalesced loads) or array of structures (each point's 16 floats
// together, as a file of records holds them: each load instruction of a warp touches 32 sectors
// 64 bytes apart, most of them L1 hits). 2,097,152 points (128 MiB).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr int kDims = 16;
constexpr int kClusters = 64;
constexpr unsigned kThreads = 256;

// The nearest centroid to `point` (the first of equals), and its squared distance.
__device__ void nearest_centroid(const float (&point)[kDims], const float4* centroids, int& label, float& distance) {
  float best = FLT_MAX;
  int best_label = 0;
  for (int k = 0; k < kClusters; ++k) {
    float d2 = 0;
#pragma unroll
    for (int q = 0; q < kDims / 4; ++q) {
      const float4 c = centroids[k * (kDims / 4) + q];
      const float dx = point[4 * q] - c.x, dy = point[4 * q + 1] - c.y, dz = point[4 * q + 2] - c.z,
                  dw = point[4 * q + 3] - c.w;
      d2 += dx * dx + dy * dy + dz * dz + dw * dw;
    }
    if (d2 < best) {
      best = d2;
      best_label = k;
    }
  }
  label = best_label;
  distance = best;
}

__device__ void load_centroids(float4* shared, const float* __restrict__ centroids) {
  for (unsigned i = threadIdx.x; i < kClusters * kDims / 4; i += blockDim.x)
    shared[i] = reinterpret_cast<const float4*>(centroids)[i];
  __syncthreads();
}

// points[d * n + i]: dimension d of point i.
__global__ void kmeans_assign_soa(int* __restrict__ labels, float* __restrict__ distances,
                                  const float* __restrict__ points, const float* __restrict__ centroids, int n) {
  __shared__ float4 shared_centroids[kClusters * kDims / 4];
  load_centroids(shared_centroids, centroids);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float point[kDims];
#pragma unroll
  for (int d = 0; d < kDims; ++d) point[d] = points[static_cast<size_t>(d) * n + i];
  nearest_centroid(point, shared_centroids, labels[i], distances[i]);
}

// points[i * kDims + d]: dimension d of point i.
__global__ void kmeans_assign_aos(int* __restrict__ labels, float* __restrict__ distances,
                                  const float* __restrict__ points, const float* __restrict__ centroids, int n) {
  __shared__ float4 shared_centroids[kClusters * kDims / 4];
  load_centroids(shared_centroids, centroids);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float point[kDims];
#pragma unroll
  for (int d = 0; d < kDims; ++d) point[d] = points[static_cast<size_t>(i) * kDims + d];
  nearest_centroid(point, shared_centroids, labels[i], distances[i]);
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "kmeans", "k-means assignment, 64 centroids in 16-D, fp32");
  const int n = options.small ? (1 << 14) : (1 << 21);
  print_header("kmeans", std::to_string(n) + " points, " + std::to_string(kClusters) + " centroids, " +
                             std::to_string(kDims) + " dimensions");

  std::vector<float> aos(static_cast<size_t>(n) * kDims), centroids(kClusters * kDims);
  fill_uniform(aos, 0.0f, 1.0f, fresh_seed());
  fill_uniform(centroids, 0.0f, 1.0f, fresh_seed() + 1);
  std::vector<float> soa(aos.size());
  for (size_t i = 0; i < static_cast<size_t>(n); ++i)
    for (int d = 0; d < kDims; ++d) soa[d * static_cast<size_t>(n) + i] = aos[i * kDims + d];
  DeviceBuffer<float> aos_d(aos.size()), soa_d(soa.size()), centroids_d(centroids.size()), distances_d(n);
  DeviceBuffer<int> labels_d(n);
  aos_d.upload(aos);
  soa_d.upload(soa);
  centroids_d.upload(centroids);

  const unsigned blocks = blocks_for(n, kThreads);
  auto assign_soa = [&] {
    kmeans_assign_soa<<<blocks, kThreads>>>(labels_d.get(), distances_d.get(), soa_d.get(), centroids_d.get(), n);
  };
  auto assign_aos = [&] {
    kmeans_assign_aos<<<blocks, kThreads>>>(labels_d.get(), distances_d.get(), aos_d.get(), centroids_d.get(), n);
  };

  // Each kernel from poisoned outputs, against the host in double on a sample of points: the
  // label's distance must be the smallest (up to fp32 rounding: near-ties may go either way),
  // and the distance written must be that label's.
  auto check = [&](const std::string& name, const std::function<void()>& launch) {
    labels_d.poison();
    distances_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<int> labels = labels_d.download();
    const std::vector<float> distances = distances_d.download();
    size_t wrong = 0, checked = 0;
    for (const size_t i : elements_to_check(n, 1 << 14)) {
      std::vector<double> d2(kClusters, 0.0);
      for (int k = 0; k < kClusters; ++k)
        for (int d = 0; d < kDims; ++d) {
          const double delta = static_cast<double>(aos[i * kDims + d]) - centroids[k * kDims + d];
          d2[k] += delta * delta;
        }
      double best = d2[0];
      for (const double v : d2) best = std::min(best, v);
      const int label = labels[i];
      const bool right = label >= 0 && label < kClusters && d2[label] <= best * (1 + 1e-5) &&
                         std::abs(distances[i] - d2[label]) <= 1e-5 * d2[label];
      wrong += !right;
      ++checked;
    }
    return report_check(name, wrong == 0, std::to_string(wrong) + " of " + std::to_string(checked) +
                                               " sampled points with a wrong label or distance vs host");
  };
  bool ok = check("kmeans_assign_soa", assign_soa);
  ok &= check("kmeans_assign_aos", assign_aos);

  time_kernel("kmeans_assign_soa", options, assign_soa);
  time_kernel("kmeans_assign_aos", options, assign_aos);
  return ok ? 0 : 1;
}
