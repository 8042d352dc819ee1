// Where the ranks of a run are: on how many nodes, how many ranks on each, and what carried the
// all-reduces between them.
//
// A node is what torchrun calls one: the ranks one agent started (its GROUP_RANK), on one host.
// Ranks of different hosts are on different nodes; two torchrun agents on one host are two nodes
// too (what lets one host stand in for two). Ranks started by `--nproc N`, or by a launcher that
// sets no GROUP_RANK, are on their host's node. The copy engines, peer access and symmetric memory
// stop at a node's boundary: "grad_transport" "auto" takes the collective across nodes, "copy-engine"
// is refused.
//
// The transport is derived from the backend, the layout and the backend's settings, not asked of
// the backend (NCCL does not tell a program which transport it chose; it prints it under
// NCCL_DEBUG=INFO, "via NET/Socket/0", which is how a run can confirm it): `basis` says what the
// figure rests on.
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

// What carried `backend`'s ("nccl", "gloo") collectives among ranks laid out as `layout`, under the
// backend's settings (environment_variables.h: NCCL_P2P_DISABLE, NCCL_SHM_DISABLE, NCCL_NET,
// NCCL_IB_DISABLE are read).
TransportReport derive_transport(const std::string& backend, const NodeLayout& layout,
                                 const std::map<std::string, std::string>& settings);

}  // namespace graphbench::parallel
