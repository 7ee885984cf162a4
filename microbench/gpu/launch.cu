// Launch overhead: back-to-back launches of an empty kernel (the rate the runtime and
// front end sustain), the event-to-event time of one tiny kernel (one warp), and the kernel
// floor: the time per tiny kernel inside a CUDA/HIP graph of many (what a CUPTI activity
// record shows for a trivial kernel). And the block dispatch rate: how many one-warp blocks
// per second the GPU starts and retires when blocks do (almost) nothing, the bound on a
// grid of many short blocks (`roofcast tune`).
#include <algorithm>

#include <fmt/format.h>

#include "characterizers.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kLaunchesPerRepetition = 1000;
constexpr int kTinyThreads = 32;
constexpr int kDispatchBlocksPerSm = 8192;

__global__ void empty_kernel() {}

__global__ void tiny_kernel(uint32_t* out, uint32_t seed) { out[threadIdx.x] = seed + threadIdx.x * 3u; }

// One word per block, so that every block must run.
__global__ void dispatch_kernel(uint32_t* out, uint32_t seed) {
  if (threadIdx.x == 0) out[blockIdx.x] = seed + blockIdx.x;
}

// One value per launch: launch i of the graph writes out[i].
__global__ void floor_kernel(uint32_t* out, uint32_t index, uint32_t seed) {
  if (threadIdx.x == 0) out[index] = seed + index * 7u;
}

#if ROOFCAST_BACKEND_HIP
using Graph = hipGraph_t;
using GraphExec = hipGraphExec_t;
#define ROOFCAST_GRAPH(name) hip##name
#define ROOFCAST_STREAM_CAPTURE_MODE hipStreamCaptureModeThreadLocal
#else
using Graph = cudaGraph_t;
using GraphExec = cudaGraphExec_t;
#define ROOFCAST_GRAPH(name) cuda##name
#define ROOFCAST_STREAM_CAPTURE_MODE cudaStreamCaptureModeThreadLocal
#endif

// kLaunchesPerRepetition tiny kernels captured into one graph on a stream of their own; the
// graph, its stream and the executable graph are released with it.
class TinyKernelGraph {
 public:
  TinyKernelGraph(uint32_t* out, uint32_t seed) {
    ROOFCAST_GPU_CHECK(ROOFCAST_GRAPH(StreamCreate)(&stream_));
    ROOFCAST_GPU_CHECK(ROOFCAST_GRAPH(StreamBeginCapture)(stream_, ROOFCAST_STREAM_CAPTURE_MODE));
    for (uint32_t i = 0; i < kLaunchesPerRepetition; ++i) floor_kernel<<<1, kTinyThreads, 0, stream_>>>(out, i, seed);
    ROOFCAST_GPU_CHECK_LAUNCH("floor_kernel");
    ROOFCAST_GPU_CHECK(ROOFCAST_GRAPH(StreamEndCapture)(stream_, &graph_));
    ROOFCAST_GPU_CHECK(ROOFCAST_GRAPH(GraphInstantiateWithFlags)(&exec_, graph_, 0));
  }
  ~TinyKernelGraph() {
    // Nothing to do about a failure while releasing.
    if (exec_) (void)ROOFCAST_GRAPH(GraphExecDestroy)(exec_);
    if (graph_) (void)ROOFCAST_GRAPH(GraphDestroy)(graph_);
    if (stream_) (void)ROOFCAST_GRAPH(StreamDestroy)(stream_);
  }
  TinyKernelGraph(const TinyKernelGraph&) = delete;
  TinyKernelGraph& operator=(const TinyKernelGraph&) = delete;
  // Launched on the graph's own (blocking) stream: the events on the default stream around it
  // wait for it.
  void launch() { ROOFCAST_GPU_CHECK(ROOFCAST_GRAPH(GraphLaunch)(exec_, stream_)); }

 private:
  Stream stream_ = nullptr;
  Graph graph_ = nullptr;
  GraphExec exec_ = nullptr;
};

}  // namespace

std::vector<Measurement> characterize_launch(const Context& context) {
  std::vector<Measurement> results;
  Workload empty{"launch_overhead_us", "Empty-kernel launch (back to back)", "us", kLaunchesPerRepetition};
  empty.launch = [] {
    for (int i = 0; i < kLaunchesPerRepetition; ++i) empty_kernel<<<1, 1>>>();
    ROOFCAST_GPU_CHECK_LAUNCH("empty_kernel");
  };
  empty.details = fmt::format("{} launches of <<<1, 1>>> per repetition", kLaunchesPerRepetition);
  results.push_back(measure(empty, context.policy));

  DeviceBuffer<uint32_t> out(kTinyThreads);
  uint32_t seed = 1;
  Workload tiny{"tiny_kernel_us", "Tiny kernel (1 warp), one launch", "us", 1};
  tiny.launch = [&] {
    ++seed;
    tiny_kernel<<<1, kTinyThreads>>>(out.data(), seed);
    ROOFCAST_GPU_CHECK_LAUNCH("tiny_kernel");
  };
  tiny.verify = [&]() -> std::string {
    const auto host = out.to_host();
    for (uint32_t t = 0; t < kTinyThreads; ++t)
      if (host[t] != seed + t * 3u) return fmt::format("thread {} wrote {}, expected {}", t, host[t], seed + t * 3u);
    return "";
  };
  tiny.details = "<<<1, 32>>> writing 32 words, timed alone between two events";
  RunPolicy policy = context.policy;
  policy.repetitions = std::max(policy.repetitions, 50);
  results.push_back(measure(tiny, policy));

  // Kernel floor: GPU time per kernel when kernels run back to back with no host in between.
  const uint32_t floor_seed = 0x5EED;
  DeviceBuffer<uint32_t> floor_out(kLaunchesPerRepetition);
  floor_out.poison();
  TinyKernelGraph graph(floor_out.data(), floor_seed);
  Workload floor{"kernel_floor_us", "Kernel floor (tiny kernels in a CUDA graph)", "us", kLaunchesPerRepetition};
  floor.launch = [&] { graph.launch(); };
  floor.verify = [&]() -> std::string {
    const auto host = floor_out.to_host();
    for (uint32_t i = 0; i < kLaunchesPerRepetition; ++i)
      if (host[i] != floor_seed + i * 7u)
        return fmt::format("launch {} wrote {}, expected {}", i, host[i], floor_seed + i * 7u);
    return "";
  };
  floor.details = fmt::format("{} launches of <<<1, {}>>> (each writes one word) captured in one graph, graph time / {}",
                              kLaunchesPerRepetition, kTinyThreads, kLaunchesPerRepetition);
  results.push_back(measure(floor, context.policy));

  const uint32_t blocks = static_cast<uint32_t>(std::max(context.sm_count, 1)) * kDispatchBlocksPerSm;
  DeviceBuffer<uint32_t> dispatch_out(blocks);
  uint32_t dispatch_seed = 3;
  Workload dispatch{"block_dispatch_gblocks", "Block dispatch (one-warp blocks)", "G/s", double(blocks)};
  dispatch.launch = [&] {
    ++dispatch_seed;
    dispatch_kernel<<<blocks, kTinyThreads>>>(dispatch_out.data(), dispatch_seed);
    ROOFCAST_GPU_CHECK_LAUNCH("dispatch_kernel");
  };
  dispatch.verify = [&]() -> std::string {
    const auto host = dispatch_out.to_host();
    for (uint32_t b = 0; b < blocks; ++b)
      if (host[b] != dispatch_seed + b) return fmt::format("block {} wrote {}, expected {}", b, host[b], dispatch_seed + b);
    return "";
  };
  dispatch.details = fmt::format("{} blocks of {} threads ({} per SM), thread 0 of each writes one word; blocks / time",
                                 blocks, kTinyThreads, kDispatchBlocksPerSm);
  results.push_back(measure(dispatch, context.policy));
  return results;
}

}  // namespace roofcast::gpu
