#pragma once

#include <optional>
#include <string>
#include <vector>

#include <cuda.h>

#include "kernel_relaunch.hpp"
#include "launch_info.hpp"

namespace roofcast::profiler {

// Walking a CUDA graph node by node, so the collector can profile each of its kernels as a
// launch of its own (CUPTI gives no launch callback for a graph's kernel nodes).

// The graph's nodes in an order that respects every dependency edge.
std::vector<CUgraphNode> nodes_in_dependency_order(CUgraph graph);

// Why the walk cannot run this graph (a node kind it cannot run one by one: child graphs,
// conditional nodes, memory allocation...), or nullopt when it can.
std::optional<std::string> unsupported_node(const std::vector<CUgraphNode>& nodes);

// The launch a kernel node stands for: its function's name, its shape, `device`.
LaunchInfo kernel_node_launch(const KernelRelaunch& node, int device);

// Runs a node that is not a kernel on `stream` as the graph would (memset, memcpy, host
// function; empty and event nodes do nothing) and waits for it; throws on failure.
void run_non_kernel_node(CUgraphNode node, CUstream stream);

}  // namespace roofcast::profiler
