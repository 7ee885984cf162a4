#include "graph_walk.hpp"

#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "driver_status.hpp"

namespace roofcast::profiler {

namespace {

CUgraphNodeType type_of(CUgraphNode node) {
  CUgraphNodeType type;
  check_driver(cuGraphNodeGetType(node, &type), "cuGraphNodeGetType");
  return type;
}

}  // namespace

std::vector<CUgraphNode> nodes_in_dependency_order(CUgraph graph) {
  size_t count = 0;
  check_driver(cuGraphGetNodes(graph, nullptr, &count), "cuGraphGetNodes");
  std::vector<CUgraphNode> nodes(count);
  check_driver(cuGraphGetNodes(graph, nodes.data(), &count), "cuGraphGetNodes");
  size_t edges = 0;
  check_driver(cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges), "cuGraphGetEdges");
  std::vector<CUgraphNode> from(edges), to(edges);
  check_driver(cuGraphGetEdges(graph, from.data(), to.data(), nullptr, &edges), "cuGraphGetEdges");

  // Kahn's algorithm; among ready nodes, the one the graph lists first.
  std::map<CUgraphNode, size_t> position, waiting_on;
  for (size_t i = 0; i < nodes.size(); ++i) position[nodes[i]] = i;
  std::multimap<CUgraphNode, CUgraphNode> successors;
  for (size_t e = 0; e < edges; ++e) {
    successors.emplace(from[e], to[e]);
    ++waiting_on[to[e]];
  }
  std::map<size_t, CUgraphNode> ready;
  for (const CUgraphNode node : nodes)
    if (waiting_on[node] == 0) ready.emplace(position[node], node);
  std::vector<CUgraphNode> order;
  while (!ready.empty()) {
    const CUgraphNode node = ready.begin()->second;
    ready.erase(ready.begin());
    order.push_back(node);
    const auto [first, last] = successors.equal_range(node);
    for (auto it = first; it != last; ++it)
      if (--waiting_on[it->second] == 0) ready.emplace(position[it->second], it->second);
  }
  if (order.size() != nodes.size()) throw std::runtime_error("the graph's dependencies form a cycle");
  return order;
}

std::optional<std::string> unsupported_node(const std::vector<CUgraphNode>& nodes) {
  for (const CUgraphNode node : nodes) {
    switch (type_of(node)) {
      case CU_GRAPH_NODE_TYPE_KERNEL:
      case CU_GRAPH_NODE_TYPE_MEMSET:
      case CU_GRAPH_NODE_TYPE_MEMCPY:
      case CU_GRAPH_NODE_TYPE_HOST:
      case CU_GRAPH_NODE_TYPE_EMPTY:
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        break;
      default:
        return fmt::format("a node of type {} (child graph, conditional, memory allocation or external "
                           "semaphore nodes are not walked)",
                           static_cast<int>(type_of(node)));
    }
  }
  return std::nullopt;
}

LaunchInfo kernel_node_launch(const KernelRelaunch& node, int device) {
  const char* name = nullptr;
  check_driver(cuFuncGetName(&name, node.function()), "cuFuncGetName (graph kernel node)");
  LaunchInfo launch;
  launch.name = name ? name : "(unknown kernel)";
  launch.demangled = demangle(name);
  launch.device = device;
  launch.grid = node.grid();
  launch.block = node.block();
  launch.dynamic_shared_bytes = node.dynamic_shared_bytes();
  return launch;
}

void run_non_kernel_node(CUgraphNode node, CUstream stream) {
  switch (type_of(node)) {
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      CUDA_MEMSET_NODE_PARAMS p{};
      check_driver(cuGraphMemsetNodeGetParams(node, &p), "cuGraphMemsetNodeGetParams");
      const size_t pitch = p.height > 1 ? p.pitch : p.width * p.elementSize;
      CUresult result = CUDA_ERROR_INVALID_VALUE;
      if (p.elementSize == 1)
        result = cuMemsetD2D8Async(p.dst, pitch, static_cast<unsigned char>(p.value), p.width, p.height, stream);
      else if (p.elementSize == 2)
        result = cuMemsetD2D16Async(p.dst, pitch, static_cast<unsigned short>(p.value), p.width, p.height, stream);
      else if (p.elementSize == 4)
        result = cuMemsetD2D32Async(p.dst, pitch, p.value, p.width, p.height, stream);
      check_driver(result, "cuMemsetD2D*Async (graph memset node)");
      break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: {
      CUDA_MEMCPY3D p{};
      check_driver(cuGraphMemcpyNodeGetParams(node, &p), "cuGraphMemcpyNodeGetParams");
      check_driver(cuMemcpy3DAsync(&p, stream), "cuMemcpy3DAsync (graph memcpy node)");
      break;
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
      CUDA_HOST_NODE_PARAMS p{};
      check_driver(cuGraphHostNodeGetParams(node, &p), "cuGraphHostNodeGetParams");
      check_driver(cuStreamSynchronize(stream), "cuStreamSynchronize (before a graph host node)");
      if (p.fn != nullptr) p.fn(p.userData);
      break;
    }
    default:  // empty and event nodes: the walk runs in order on one stream already
      break;
  }
  check_driver(cuStreamSynchronize(stream), "cuStreamSynchronize (after a graph node)");
}

}  // namespace roofcast::profiler
