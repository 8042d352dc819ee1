// Where the ranks are (parallel/communication/node_layout.h): nodes and hosts from the ranks' node
// keys, and the transport derived from the backend, the layout and NCCL's settings.
#include "graphbench/parallel/communication/node_layout.h"
#include "support/catch.h"

using graphbench::parallel::derive_transport;
using graphbench::parallel::layout_of;
using graphbench::parallel::node_key;
using NcclSettings = std::map<std::string, std::string>;

TEST_CASE("node layout: torchrun's nodes on one host are nodes of their own, --nproc ranks share their host's", "[dist]") {
  CHECK(node_key("vm", 1) == "vm/node 1");
  CHECK(node_key("vm", std::nullopt) == "vm");
  CHECK(graphbench::parallel::host_of_key("vm/node 1") == "vm");
  const auto two_agents = layout_of({node_key("vm", 0), node_key("vm", 1)});
  CHECK(two_agents.nodes == 2);
  CHECK(two_agents.hosts == 1);
  CHECK(two_agents.ranks_per_node == std::vector<int>{1, 1});
  CHECK(two_agents.node_of_rank == std::vector<int>{0, 1});
  CHECK_FALSE(two_agents.one_node());
  const auto two_hosts = layout_of({"a", "a", "b", "b"});
  CHECK(two_hosts.nodes == 2);
  CHECK(two_hosts.hosts == 2);
  CHECK(two_hosts.ranks_per_node == std::vector<int>{2, 2});
  CHECK(two_hosts.node_of_rank == std::vector<int>{0, 0, 1, 1});
  const auto one = layout_of({"a", "a"});
  CHECK(one.one_node());
  CHECK(one.ranks_per_node == std::vector<int>{2});
}

TEST_CASE("node layout: the transport follows the hosts and NCCL's settings, and says on what it rests", "[dist]") {
  const auto one_host_two_nodes = layout_of({node_key("vm", 0), node_key("vm", 1)});
  const NcclSettings off{{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}};
  const auto net = derive_transport("nccl", one_host_two_nodes, off);
  CHECK(net.transport == "NET");
  CHECK(net.basis.find("NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1") != std::string::npos);
  NcclSettings sockets = off;
  sockets["NCCL_NET"] = "Socket";
  CHECK(derive_transport("nccl", one_host_two_nodes, sockets).transport == "NET/Socket");
  CHECK(derive_transport("nccl", one_host_two_nodes, {}).transport == "P2P/SHM");
  CHECK(derive_transport("nccl", layout_of({"a", "b"}), {}).transport == "NET");
  CHECK(derive_transport("nccl", layout_of({"a", "b"}), {{"NCCL_IB_DISABLE", "1"}}).transport == "NET/Socket");
  CHECK(derive_transport("gloo", layout_of({"a", "b"}), {}).transport == "gloo/tcp");
  CHECK(derive_transport("nccl", layout_of({"a"}), {}).transport == "none");
}
