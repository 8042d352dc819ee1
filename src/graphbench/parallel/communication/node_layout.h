// Where the ranks are: nodes (torchrun's GROUP_RANK, else the host), ranks per node, and what carried
// the all-reduces, derived from backend, layout and settings (NCCL does not tell which it chose):
// `basis` says what that rests on. Copy engines, peer access and symmetric memory stop at a node.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphbench::parallel {

// One rank's node, as the ranks compare it: "HOST", or "HOST/node R" under torchrun (GROUP_RANK R).
std::string node_key(const std::string& host, std::optional<int> group_rank);
// The host part of a key.
std::string host_of_key(const std::string& key);

struct NodeLayout {
  int nodes = 1;
  int hosts = 1;
  std::vector<int> ranks_per_node{1};  // by node, the nodes in the order of their lowest rank
  std::vector<int> node_of_rank{0};    // by rank
  bool one_node() const { return nodes == 1; }
  // "2 nodes of 1 rank", "1 node of 4 ranks", "2 nodes of 3, 1 ranks"
  std::string describe() const;
};

// The layout of the ranks whose node keys (node_key) are `keys_by_rank`, rank 0's first.
NodeLayout layout_of(const std::vector<std::string>& keys_by_rank);

struct TransportReport {
  std::string transport;  // "NET/Socket", "NET", "P2P/SHM", "gloo/tcp", "none"
  std::string basis;      // how it is known
};

// What carried `backend`'s collectives among `layout`'s ranks, under its settings (NCCL_P2P_DISABLE,
// NCCL_SHM_DISABLE, NCCL_NET, NCCL_IB_DISABLE).
TransportReport derive_transport(const std::string& backend, const NodeLayout& layout,
                                 const std::map<std::string, std::string>& settings);

}  // namespace graphbench::parallel
