// Issue 28, class (e): irregular graph frontier expansion, gathers through an index array,
// 12 launches, one per level. A top-down breadth-first search from a set of sources over a
// random graph built with exactly 12 levels: each launch takes one level's frontier (a
// stretch of the queue), reads each frontier vertex's neighbour list (an index array) and
// gathers the neighbours' stamps at random positions; a neighbour not yet reached is claimed
// by a compare-and-swap and appended to the next level's stretch of the queue (one atomic
// per warp). The grid of each launch is sized for its level's frontier, as the host knows it
// from its own search, so the 12 levels are 12 launch shapes. Two kernels on two graphs:
// one thread per frontier vertex (2^23 vertices, ~8 neighbours each), and one warp per
// frontier vertex (2^22 vertices, ~16 neighbours; workloads/latency_classes.json says which
// half each belongs to). Searches after the first reuse the stamps: each search claims
// with larger values (an epoch), so none needs the arrays reset between launches.
#include <algorithm>
#include <string>
#include <vector>

#include <cooperative_groups.h>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;
namespace cg = cooperative_groups;

constexpr unsigned kLevels = 12;
constexpr unsigned kEpochStride = 16;        // stamps of one search: base + 1 .. base + kLevels
constexpr unsigned kSource = 0xFFFFFFFFu;    // a source's stamp: never claimed, level 0
constexpr unsigned kExpandThreads = 256;

// A slot in the next level's stretch of the queue: one atomic per group of claiming lanes.
__device__ unsigned append_slot(unsigned* counter) {
  const cg::coalesced_group claiming = cg::coalesced_threads();
  unsigned first = 0;
  if (claiming.thread_rank() == 0) first = atomicAdd(counter, claiming.size());
  return claiming.shfl(first, 0) + claiming.thread_rank();
}

// Whether this thread claims u for the level after `depth` of the search whose stamps start
// above `base` (stamps below are older searches'; a stale read only costs a failed swap).
__device__ bool claim(unsigned* stamp, unsigned u, unsigned base, unsigned depth) {
  const unsigned seen = stamp[u];
  return seen <= base && atomicCAS(&stamp[u], seen, base + depth + 1) == seen;
}

// The stretch of the queue that holds level `depth`: the levels before it come first.
__device__ unsigned level_begin(const unsigned* sizes, unsigned depth) {
  unsigned begin = 0;
  for (unsigned d = 0; d < depth; ++d) begin += sizes[d];
  return begin;
}

__global__ void frontier_expand_thread(unsigned* __restrict__ queue, unsigned* __restrict__ sizes,
                                       unsigned* __restrict__ stamp, const unsigned* __restrict__ row_start,
                                       const unsigned* __restrict__ columns, unsigned base, unsigned depth) {
  const unsigned begin = level_begin(sizes, depth), count = sizes[depth];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const unsigned v = queue[begin + i];
  for (unsigned e = row_start[v]; e < row_start[v + 1]; ++e) {
    const unsigned u = columns[e];
    if (claim(stamp, u, base, depth)) queue[begin + count + append_slot(&sizes[depth + 1])] = u;
  }
}

__global__ void frontier_expand_warp(unsigned* __restrict__ queue, unsigned* __restrict__ sizes,
                                     unsigned* __restrict__ stamp, const unsigned* __restrict__ row_start,
                                     const unsigned* __restrict__ columns, unsigned base, unsigned depth) {
  const unsigned begin = level_begin(sizes, depth), count = sizes[depth];
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= count) return;
  const unsigned v = queue[begin + warp];
  for (unsigned e = row_start[v] + lane; e < row_start[v + 1]; e += 32) {
    const unsigned u = columns[e];
    if (claim(stamp, u, base, depth)) queue[begin + count + append_slot(&sizes[depth + 1])] = u;
  }
}

namespace {

using ExpandKernel = void (*)(unsigned*, unsigned*, unsigned*, const unsigned*, const unsigned*, unsigned, unsigned);

// Random numbers a chunk at a time (fill_bits), for the graph's many draws.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : seed_(seed), chunk_(1u << 16) { refill(); }
  unsigned below(unsigned limit) {
    if (next_ == chunk_.size()) refill();
    return static_cast<unsigned>((std::uint64_t{chunk_[next_++]} * limit) >> 32);
  }

 private:
  void refill() {
    fill_bits(chunk_, seed_++);
    next_ = 0;
  }
  std::uint64_t seed_;
  std::vector<std::uint32_t> chunk_;
  size_t next_ = 0;
};

// A graph whose breadth-first levels from its sources are exactly its 12 layers. Vertices are
// made layer by layer (index 0 .. n - 1) and numbered by an odd multiplier modulo n (a power
// of two), which scatters every layer over the whole numbering. A vertex of layer l links to
// 1 .. 2 x extra - 1 random vertices of layers 0 .. l + 1, and every vertex of layer l + 1
// has a random parent in layer l that links to it: no edge skips a layer forward, and each
// layer is reached from the one before it.
class LayeredGraph {
 public:
  LayeredGraph(unsigned n, unsigned extra, std::uint64_t seed) : n_(n) {
    // Each level's share of the vertices (the last takes the rest): all different, so that
    // each level's launch has a grid of its own.
    static constexpr double kShare[kLevels] = {0.001, 0.004, 0.015, 0.04, 0.075, 0.13, 0.17, 0.16, 0.15, 0.12, 0.085, 0.0};
    unsigned end = 0;
    for (unsigned l = 0; l < kLevels; ++l) {
      const unsigned size = l + 1 < kLevels ? std::max(1u, static_cast<unsigned>(kShare[l] * n)) : n - end;
      level_sizes.push_back(size);
      ends_.push_back(end += size);
    }
    Draws draws(seed);
    // Children of each vertex (by index), as a CSR of indices.
    std::vector<unsigned> parent(n), child_start(n + 1, 0);
    for (unsigned index = ends_[0]; index < n; ++index) {
      const unsigned layer = layer_of(index), first = ends_[layer - 1] - level_sizes[layer - 1];
      parent[index] = first + draws.below(level_sizes[layer - 1]);
      ++child_start[parent[index] + 1];
    }
    for (unsigned index = 0; index < n; ++index) child_start[index + 1] += child_start[index];
    std::vector<unsigned> children(n - ends_[0]), fill(child_start.begin(), child_start.end() - 1);
    for (unsigned index = ends_[0]; index < n; ++index) children[fill[parent[index]]++] = index;
    // Neighbour lists by vertex number: the random links, then the children.
    std::vector<unsigned> links(n);
    for (unsigned v = 0; v < n; ++v) links[v] = 1 + draws.below(2 * extra - 1);
    row_start.assign(n + 1, 0);
    for (unsigned v = 0; v < n; ++v) {
      const unsigned index = index_of(v);
      row_start[v + 1] = row_start[v] + links[v] + child_start[index + 1] - child_start[index];
    }
    columns.resize(row_start[n]);
    for (unsigned v = 0, at = 0; v < n; ++v) {
      const unsigned index = index_of(v), layer = layer_of(index);
      const unsigned limit = layer + 1 < kLevels ? ends_[layer + 1] : n;
      for (unsigned k = 0; k < links[v]; ++k) columns[at++] = vertex_of(draws.below(limit));
      for (unsigned c = child_start[index]; c < child_start[index + 1]; ++c) columns[at++] = vertex_of(children[c]);
    }
    for (unsigned index = 0; index < ends_[0]; ++index) sources.push_back(vertex_of(index));
  }

  // The level vertex v was built at.
  unsigned level_of(unsigned v) const { return layer_of(index_of(v)); }

  std::vector<unsigned> row_start, columns, sources;
  std::vector<unsigned> level_sizes;

 private:
  static constexpr unsigned kScatter = 0x9E3779B1u;  // odd: a bijection modulo any power of two
  static constexpr unsigned kUnscatter = [] {        // its inverse modulo 2^32 (Newton's iteration)
    unsigned inverse = kScatter;
    for (int i = 0; i < 5; ++i) inverse *= 2u - kScatter * inverse;
    return inverse;
  }();
  unsigned vertex_of(unsigned index) const { return (index * kScatter) & (n_ - 1); }
  unsigned index_of(unsigned v) const { return (v * kUnscatter) & (n_ - 1); }
  unsigned layer_of(unsigned index) const {
    return static_cast<unsigned>(std::upper_bound(ends_.begin(), ends_.end(), index) - ends_.begin());
  }
  unsigned n_;
  std::vector<unsigned> ends_;
};

// n: a power of two.
bool run(const char* name, ExpandKernel kernel, unsigned vertices_per_block, unsigned n, unsigned extra,
         const Options& options) {
  const LayeredGraph graph(n, extra, fresh_seed());
  const size_t edges = graph.columns.size();
  std::vector<unsigned> want(n), want_sizes(graph.level_sizes);
  for (unsigned v = 0; v < n; ++v) want[v] = graph.level_of(v);
  want_sizes.push_back(0);  // the last level's launch finds no new vertex

  // One search per epoch: the check, then the warm-ups and timed repeats.
  const unsigned epochs = 1 + options.warmups + options.repeats;
  std::vector<unsigned> stamps(n, 0), queue(n, 0), sizes(size_t{epochs} * kEpochStride, 0);
  for (const unsigned s : graph.sources) stamps[s] = kSource;
  std::copy(graph.sources.begin(), graph.sources.end(), queue.begin());
  for (unsigned e = 0; e < epochs; ++e) sizes[size_t{e} * kEpochStride] = static_cast<unsigned>(graph.sources.size());
  DeviceBuffer<unsigned> row_start_d(n + 1), columns_d(edges), stamp_d(n), queue_d(n), sizes_d(sizes.size());
  row_start_d.upload(graph.row_start);
  columns_d.upload(graph.columns);
  stamp_d.upload(stamps);
  queue_d.upload(queue);
  sizes_d.upload(sizes);

  unsigned epoch = 0;
  auto search = [&] {
    const unsigned base = kEpochStride * (epoch + 1);
    for (unsigned depth = 0; depth < kLevels; ++depth)
      kernel<<<blocks_for(graph.level_sizes[depth], vertices_per_block), kExpandThreads>>>(
          queue_d.get(), sizes_d.get() + size_t{epoch} * kEpochStride, stamp_d.get(), row_start_d.get(),
          columns_d.get(), base, depth);
    ++epoch;
  };
  search();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> got_stamps = stamp_d.download(), got_queue = queue_d.download();
  const std::vector<unsigned> got_sizes = sizes_d.download();

  size_t wrong_levels = 0, wrong_queue = 0, wrong_sizes = 0;
  for (unsigned v = 0; v < n; ++v) {
    const unsigned s = got_stamps[v];
    const unsigned level = s == kSource ? 0 : (s > kEpochStride && s <= kEpochStride + kLevels ? s - kEpochStride : kSource);
    wrong_levels += level != want[v];
  }
  std::vector<char> listed(n, 0);
  unsigned begin = 0;
  for (unsigned depth = 0; depth <= kLevels; ++depth) {
    const unsigned count = got_sizes[depth];
    wrong_sizes += count != want_sizes[depth];
    for (unsigned i = 0; depth < kLevels && i < count && begin + i < n; ++i) {
      const unsigned v = got_queue[begin + i];
      wrong_queue += v >= n || listed[v] || want[v] != depth;
      if (v < n) listed[v] = 1;
    }
    begin += count;
  }
  const bool ok = report_check(name, wrong_levels == 0 && wrong_queue == 0 && wrong_sizes == 0,
                               std::to_string(wrong_levels) + " of " + std::to_string(n) + " levels, " +
                                   std::to_string(wrong_queue) + " queue entries and " + std::to_string(wrong_sizes) +
                                   " of 13 frontier sizes differ from the levels the graph was built with (" +
                                   std::to_string(edges) + " edges)");
  time_kernel(name, options, search, kLevels);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "frontier_expand", "top-down BFS, one launch per level of 12");
  const unsigned n_thread = options.small ? (1u << 14) : (1u << 23), n_warp = options.small ? (1u << 13) : (1u << 22);
  print_header("frontier_expand", std::to_string(n_thread) + " vertices x ~8 neighbours (a thread per vertex), " +
                                      std::to_string(n_warp) + " x ~16 (a warp per vertex), 12 levels");
  const bool thread_ok = run("frontier_expand_thread", frontier_expand_thread, kExpandThreads, n_thread, 7, options);
  const bool warp_ok = run("frontier_expand_warp", frontier_expand_warp, kExpandThreads / 32, n_warp, 15, options);
  return thread_ok && warp_ok ? 0 : 1;
}
