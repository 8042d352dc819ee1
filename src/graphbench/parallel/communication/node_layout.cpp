#include "graphbench/parallel/communication/node_layout.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/text.h"
#include "graphbench/core/record/result_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace graphbench::parallel {

namespace {

constexpr const char* kNodeMark = "/node ";

bool is_set(const std::map<std::string, std::string>& settings, const std::string& name) {
  const auto it = settings.find(name);
  return it != settings.end() && !it->second.empty() && it->second != "0";
}

// NCCL's network transport, named as far as the settings pin it down.
TransportReport nccl_net(const std::map<std::string, std::string>& settings, const std::string& why) {
  const auto net = settings.find("NCCL_NET");
  const std::string chosen = net == settings.end() ? "" : lower_case(net->second);
  if (chosen == "socket" || (chosen.empty() && is_set(settings, "NCCL_IB_DISABLE"))) {
    return {"NET/Socket", why + "; sockets, as " + (chosen.empty() ? "NCCL_IB_DISABLE" : "NCCL_NET") + " asks"};
  }
  if (chosen == "ib") return {"NET/IB", why + "; InfiniBand/RoCE, as NCCL_NET asks"};
  return {"NET", why + "; InfiniBand/RoCE where NCCL finds it, else sockets (NCCL_DEBUG=INFO names which)"};
}

}  // namespace

std::string node_key(const std::string& host, std::optional<int> group_rank) {
  return group_rank ? fmt::format("{}{}{}", host, kNodeMark, *group_rank) : host;
}

std::string host_of_key(const std::string& key) {
  const std::size_t mark = key.rfind(kNodeMark);
  return mark == std::string::npos ? key : key.substr(0, mark);
}

std::string NodeLayout::describe() const { return nodes_text(ranks_per_node); }

NodeLayout layout_of(const std::vector<std::string>& keys_by_rank) {
  if (keys_by_rank.empty()) throw EngineError("node layout: no ranks");
  NodeLayout layout;
  layout.ranks_per_node.clear();
  layout.node_of_rank.clear();
  std::vector<std::string> nodes;
  std::set<std::string> hosts;
  for (const std::string& key : keys_by_rank) {
    auto it = std::find(nodes.begin(), nodes.end(), key);
    if (it == nodes.end()) {
      nodes.push_back(key);
      layout.ranks_per_node.push_back(0);
      it = nodes.end() - 1;
    }
    const auto node = static_cast<std::size_t>(it - nodes.begin());
    ++layout.ranks_per_node[node];
    layout.node_of_rank.push_back(static_cast<int>(node));
    hosts.insert(host_of_key(key));
  }
  layout.nodes = static_cast<int>(nodes.size());
  layout.hosts = static_cast<int>(hosts.size());
  return layout;
}

TransportReport derive_transport(const std::string& backend, const NodeLayout& layout,
                                 const std::map<std::string, std::string>& settings) {
  if (layout.node_of_rank.size() <= 1) return {"none", "one rank: nothing travels"};
  if (backend == "gloo") {
    return {"gloo/tcp", "ProcessGroupGloo's TCP device, the one c10d makes on Linux"};
  }
  if (backend != "nccl") return {"unknown", "backend " + backend};
  // NCCL tells hosts apart by their host name (and boot id), not by torchrun's nodes.
  if (layout.hosts > 1) {
    return nccl_net(settings, fmt::format("ranks on {} hosts: NCCL joins hosts only through its network transport",
                                          layout.hosts));
  }
  const bool p2p = !is_set(settings, "NCCL_P2P_DISABLE");
  const bool shm = !is_set(settings, "NCCL_SHM_DISABLE");
  const std::string host = layout.nodes > 1
                               ? fmt::format("{} nodes on one host (NCCL sees one host)", layout.nodes)
                               : std::string("one host");
  if (!p2p && !shm) {
    return nccl_net(settings, host + " under NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1: NCCL's network transport");
  }
  if (p2p && shm) {
    return {"P2P/SHM", host + ": NCCL's peer-to-peer transport between GPUs that reach each other, else shared "
                              "memory (NCCL_DEBUG=INFO names which)"};
  }
  return p2p ? TransportReport{"P2P", host + " under NCCL_SHM_DISABLE=1: NCCL's peer-to-peer transport (its network "
                                             "transport between GPUs that do not reach each other)"}
             : TransportReport{"SHM", host + " under NCCL_P2P_DISABLE=1: NCCL's shared-memory transport"};
}

}  // namespace graphbench::parallel
