// An irregular gather: breadth-first search levels over a random graph in CSR form, pulled
// one step per launch (Bellman-Ford with unit weights). Each vertex reads its neighbours'
// levels at random positions (scattered 4-byte gathers, one neighbour list of 1 to 31
// entries per thread: divergent loop lengths) and keeps the smallest plus one. Every launch
// does the same work, so each is a fair sample of the kernel.
#include <algorithm>
#include <queue>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 256;
constexpr unsigned kUnreached = 0x3FFFFFFFu;  // + 1 stays far from wrapping
constexpr unsigned kMaxDegree = 31;

__global__ void bfs_pull_step(unsigned* __restrict__ level_out, const unsigned* __restrict__ level_in,
                              const unsigned* __restrict__ row_start, const unsigned* __restrict__ columns,
                              unsigned n) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned best = level_in[v];
  for (unsigned e = row_start[v]; e < row_start[v + 1]; ++e) best = min(best, level_in[columns[e]] + 1);
  level_out[v] = best;
}

namespace {

struct Graph {
  std::vector<unsigned> row_start;  // n + 1 offsets into columns
  std::vector<unsigned> columns;
};

// Each vertex gets 1..31 neighbours chosen at random (average 16).
Graph random_graph(unsigned n, std::uint64_t seed) {
  std::vector<std::uint32_t> degrees(n);
  fill_bits(degrees, seed);
  Graph graph;
  graph.row_start.resize(n + 1);
  graph.row_start[0] = 0;
  for (unsigned v = 0; v < n; ++v) graph.row_start[v + 1] = graph.row_start[v] + 1 + degrees[v] % kMaxDegree;
  graph.columns.resize(graph.row_start[n]);
  fill_bits(graph.columns, seed + 1);
  for (auto& c : graph.columns) c %= n;
  return graph;
}

// Host breadth-first search from vertex 0 along the pull direction: v's level is one more
// than the smallest level among the vertices in its list.
std::vector<unsigned> host_levels(const Graph& graph, unsigned n) {
  // The reverse graph in CSR form: for each u, the vertices whose list holds u.
  std::vector<unsigned> reverse_start(n + 1, 0), reverse(graph.columns.size());
  for (const unsigned u : graph.columns) ++reverse_start[u + 1];
  for (unsigned u = 0; u < n; ++u) reverse_start[u + 1] += reverse_start[u];
  std::vector<unsigned> fill(reverse_start.begin(), reverse_start.end() - 1);
  for (unsigned v = 0; v < n; ++v)
    for (unsigned e = graph.row_start[v]; e < graph.row_start[v + 1]; ++e) reverse[fill[graph.columns[e]]++] = v;
  std::vector<unsigned> level(n, kUnreached);
  std::queue<unsigned> frontier;
  level[0] = 0;
  frontier.push(0);
  while (!frontier.empty()) {
    const unsigned u = frontier.front();
    frontier.pop();
    for (unsigned e = reverse_start[u]; e < reverse_start[u + 1]; ++e)
      if (const unsigned v = reverse[e]; level[v] == kUnreached) {
        level[v] = level[u] + 1;
        frontier.push(v);
      }
  }
  return level;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "graph_gather", "BFS pull steps over a random CSR graph");
  const unsigned n = options.small ? (1u << 14) : (1u << 22);
  const Graph graph = random_graph(n, fresh_seed());
  const size_t edges = graph.columns.size();
  print_header("graph_gather", std::to_string(n) + " vertices, " + std::to_string(edges) + " edges");

  std::vector<unsigned> start(n, kUnreached);
  start[0] = 0;
  DeviceBuffer<unsigned> row_start_d(n + 1), columns_d(edges), level_a(n), level_b(n);
  row_start_d.upload(graph.row_start);
  columns_d.upload(graph.columns);
  level_a.upload(start);
  const unsigned blocks = blocks_for(n, kThreads);
  auto step = [&](const DeviceBuffer<unsigned>& from, DeviceBuffer<unsigned>& to) {
    bfs_pull_step<<<blocks, kThreads>>>(to.get(), from.get(), row_start_d.get(), columns_d.get(), n);
  };

  // Enough steps to reach every reachable vertex: the host's deepest level.
  const std::vector<unsigned> want = host_levels(graph, n);
  unsigned depth = 0;
  for (const unsigned l : want)
    if (l != kUnreached) depth = std::max(depth, l);
  for (unsigned s = 0; s < depth; ++s) s % 2 == 0 ? step(level_a, level_b) : step(level_b, level_a);
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> got = (depth % 2 == 0 ? level_a : level_b).download();
  const size_t reached = static_cast<size_t>(std::count_if(want.begin(), want.end(), [](unsigned l) { return l != kUnreached; }));
  size_t wrong = 0;
  for (unsigned v = 0; v < n; ++v) wrong += got[v] != want[v];
  const bool ok = report_check("bfs_pull_step", wrong == 0 && depth > 1,
                               std::to_string(wrong) + " of " + std::to_string(n) + " levels differ from host (" +
                                   std::to_string(reached) + " reached in " + std::to_string(depth) + " steps)");

  // Timed steps from the finished levels: the same gathers as every other step.
  time_kernel("bfs_pull_step", options, [&] { step(depth % 2 == 0 ? level_a : level_b, depth % 2 == 0 ? level_b : level_a); });
  return ok ? 0 : 1;
}
