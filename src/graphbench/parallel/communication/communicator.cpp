#include "graphbench/parallel/communication/communicator.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/host_name.h"
#include "graphbench/parallel/communication/c10d_compat.h"
#include "graphbench/parallel/communication/heartbeat.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#endif
#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <future>
#include <set>
#include <thread>

namespace graphbench::parallel {

bool backend_available(at::Device device) {
#ifdef GRAPHBENCH_DIST_NCCL
  if (device.is_cuda()) return true;
#endif
#ifdef GRAPHBENCH_DIST_GLOO
  if (device.is_cpu()) return true;
#endif
  (void)device;
  return false;
}

std::string backend_name(at::Device device) {
  if (!backend_available(device)) return "none";
  return device.is_cuda() ? "nccl" : "gloo";
}

namespace {

std::string seconds_text(std::chrono::milliseconds timeout) {
  return fmt::format("{:g} s", static_cast<double>(timeout.count()) / 1000.0);
}

[[noreturn]] void throw_no_backend(at::Device device) {
  throw InputError(fmt::format(
      "data-parallel runs on {} need {}, and this graphbench was built without it{}", device.is_cuda() ? "CUDA" : "the CPU",
      device.is_cuda() ? "c10d's ProcessGroupNCCL (nccl.h at build time)" : "c10d's ProcessGroupGloo (Debian: libgloo-dev)",
      device.is_cuda() ? "" : "; install it and rebuild"));
}

}  // namespace

#ifdef GRAPHBENCH_WITH_DISTRIBUTED
using c10d_compat::GroupPtr;
#endif

struct Communicator::Impl {
#ifdef GRAPHBENCH_WITH_DISTRIBUTED
  c10::intrusive_ptr<c10d::Store> store;  // the rendezvous store (all keys of this run below it)
  c10::intrusive_ptr<c10d::Store> kv;     // store_set / store_get
  GroupPtr group;
#endif
  int rank = 0;
  int world_size = 1;
  at::Device device = at::kCPU;
  std::string backend = "none";
  std::chrono::milliseconds timeout{0};
  bool shut_down = false;
  bool solo = false;  // made by solo()
  NodeLayout layout;
  bool own_processes = true;
  std::int64_t gathers = 0;  // every rank gathers in the same order: the count names the keys
#ifdef GRAPHBENCH_SYMMETRIC_MEMORY
  // The process groups of add_symmetric_memory_group(): LibTorch's registry holds them weakly.
  std::vector<c10::intrusive_ptr<c10d::ProcessGroup>> symmetric_groups;
#endif
};

Communicator::Communicator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Communicator::~Communicator() { shutdown(); }

int Communicator::rank() const { return impl_->rank; }
int Communicator::world_size() const { return impl_->world_size; }
bool Communicator::is_solo() const { return impl_->solo; }
at::Device Communicator::device() const { return impl_->device; }
const NodeLayout& Communicator::node_layout() const { return impl_->layout; }
bool Communicator::ranks_in_own_processes() const { return impl_->own_processes; }
const std::string& Communicator::backend() const { return impl_->backend; }
std::chrono::milliseconds Communicator::timeout() const { return impl_->timeout; }
bool Communicator::sums_bfloat16() const { return impl_->backend == "nccl"; }
bool Communicator::averages_in_all_reduce() const { return impl_->backend == "nccl"; }
void Communicator::all_reduce_sum_(at::Tensor& tensor) { start_all_reduce_sum_(tensor).wait(); }
bool Communicator::any_rank(bool flag) { return all_reduce_ints({flag ? 1 : 0}, IntReduce::kMax)[0] != 0; }
void Communicator::barrier() { all_reduce_ints({1}, IntReduce::kSum); }

std::string Communicator::backend_version() const {
#ifdef GRAPHBENCH_DIST_NCCL
  if (impl_->backend == "nccl") return c10d::getNcclVersion();
#endif
  return "";  // Gloo has no version to ask
}

#ifdef GRAPHBENCH_WITH_DISTRIBUTED

namespace {

c10::intrusive_ptr<c10d::Store> open_store(const RankEnv& env, std::chrono::milliseconds timeout) {
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(env.master_port);
  options.isServer = env.rank == 0 && !env.agent_store;
  options.numWorkers = static_cast<std::size_t>(env.world_size);
  options.waitWorkers = false;  // join() below waits, with a message that counts who came
  options.timeout = timeout;
  c10::intrusive_ptr<c10d::Store> store;
  try {
    store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, options);
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("rendezvous: rank {} of {} could not {} the store at {}:{} within {}: {}{}",
                                       env.rank, env.world_size, options.isServer ? "host" : "reach", env.master_addr,
                                       env.master_port, seconds_text(timeout), e.what(), env.store_hint()));
  }
  if (!env.store_prefix.empty()) store = c10::make_intrusive<c10d::PrefixStore>(env.store_prefix, store);
  return c10::make_intrusive<c10d::PrefixStore>("graphbench", store);
}

// Every rank adds itself to a counter, then waits until all have.
void join(c10d::Store& store, const RankEnv& env, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::int64_t joined = 0;
  try {
    joined = store.add("joined", 1);
    while (joined < env.world_size && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      joined = store.add("joined", 0);
      heartbeat();  // the store answered: progress, for the rendezvous's watchdog
    }
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("rendezvous: {} lost the store at {}:{}: {}{}", env.describe(), env.master_addr,
                                       env.master_port, e.what(), env.store_hint()));
  }
  if (joined < env.world_size) {
    throw DistributedError(fmt::format("rendezvous timed out after {}: {} of {} ranks joined at {}:{} ({})",
                                       seconds_text(timeout), joined, env.world_size, env.master_addr, env.master_port,
                                       env.describe()));
  }
}

#ifdef GRAPHBENCH_DIST_GLOO
std::shared_ptr<::gloo::transport::Device> gloo_device(const std::string& master_addr) {
  if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME")) {
    return c10d::ProcessGroupGloo::createDeviceForInterface(interface);
  }
  // On one host, loopback: the host name may not resolve inside containers.
  if (master_addr == "localhost" || master_addr.rfind("127.", 0) == 0) {
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  }
  return c10d::ProcessGroupGloo::createDefaultDevice();
}
#endif

GroupPtr make_group(const c10::intrusive_ptr<c10d::Store>& store, int rank, int world_size, at::Device device,
                    std::chrono::milliseconds timeout, const std::string& master_addr) {
  if (device.is_cuda()) {
#ifdef GRAPHBENCH_DIST_NCCL
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeout;  // NCCL's watchdog ends eager collectives that take longer
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world_size, options);
#endif
  } else {
#ifdef GRAPHBENCH_DIST_GLOO
    auto options = c10d::ProcessGroupGloo::Options::create(timeout);
    options->devices.push_back(gloo_device(master_addr));
    return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
#endif
  }
  (void)store, (void)rank, (void)world_size, (void)timeout, (void)master_addr;
  throw_no_backend(device);
}

// What a collective's failure says: which collective, which rank, why.
template <typename F>
void collective(const Communicator::Impl& impl, const char* what, F&& run) {
  try {
    run();
    heartbeat();
  } catch (const DistributedError&) {
    throw;
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("{} on rank {} of {} ({}) failed: {}", what, impl.rank, impl.world_size,
                                       impl.backend, e.what()));
  }
}

template <typename G, typename = void>
struct HasShutdown : std::false_type {};
template <typename G>
struct HasShutdown<G, std::void_t<decltype(std::declval<G&>().shutdown())>> : std::true_type {};

// Ends a process group on a helper thread, waiting at most `timeout` (a hanging destruction must not
// hang the run; LibTorch 1.13's groups have no shutdown).
template <typename G>
bool shutdown_group(c10::intrusive_ptr<G> group, std::chrono::milliseconds timeout) {
  if constexpr (HasShutdown<G>::value) {
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> finished = done->get_future();
    std::thread([group, done] {
      try {
        group->shutdown();
      } catch (const std::exception&) {
      }
      done->set_value();
    }).detach();
    return finished.wait_for(timeout) == std::future_status::ready;
  } else {
    return true;
  }
}

}  // namespace

std::shared_ptr<Communicator> Communicator::connect(const RankEnv& env, at::Device device,
                                                   std::chrono::milliseconds timeout) {
  if (!backend_available(device)) throw_no_backend(device);
#ifdef GRAPHBENCH_WITH_CUDA
  if (device.is_cuda()) {
    if (!device.has_index()) device = at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(env.local_rank));
    c10::cuda::set_device(device.index());
  }
#endif
  auto impl = std::make_unique<Impl>();
  impl->store = open_store(env, timeout);
  join(*impl->store, env, timeout);
  impl->kv = c10::make_intrusive<c10d::PrefixStore>("kv", impl->store);
  impl->rank = env.rank;
  impl->world_size = env.world_size;
  impl->device = device;
  impl->backend = backend_name(device);
  impl->timeout = timeout;
  try {
    impl->group = make_group(c10::make_intrusive<c10d::PrefixStore>("pg", impl->store), env.rank, env.world_size,
                             device, timeout, env.master_addr);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("creating the {} process group failed on {}: {}", impl->backend, env.describe(),
                                       e.what()));
  }
  auto communicator = std::make_shared<Communicator>(std::move(impl));
  const std::string host = host_name();
  communicator->impl_->layout = layout_of(communicator->all_gather_strings(node_key(host, env.node_rank)));
  const std::vector<std::string> processes =
      communicator->all_gather_strings(fmt::format("{}/{}", host, static_cast<long>(getpid())));
  communicator->impl_->own_processes =
      std::set<std::string>(processes.begin(), processes.end()).size() == processes.size();
  return communicator;
}

namespace {

// One all-reduce in place: on CUDA queued on the current stream (captured), on the CPU until waited for.
PendingCollective start_all_reduce(const Communicator::Impl& impl, at::Tensor& tensor, c10d::ReduceOp::RedOpType op,
                                   const char* what) {
  c10d::AllreduceOptions options;
  options.reduceOp = op;
  std::vector<at::Tensor> tensors{tensor};
  if (impl.device.is_cuda()) {
    collective(impl, what, [&] { c10d_compat::wait(impl.group->allreduce(tensors, c10d_compat::on_current_stream(options))); });
    return PendingCollective();
  }
  c10::intrusive_ptr<c10d::Work> work;
  collective(impl, what, [&] { work = impl.group->allreduce(tensors, options); });
  const Communicator::Impl* held = &impl;
  return PendingCollective([held, work, what] { collective(*held, what, [&] { c10d_compat::wait(work); }); });
}

}  // namespace

PendingCollective Communicator::start_all_reduce_sum_(at::Tensor& tensor) {
  return start_all_reduce(*impl_, tensor, c10d::ReduceOp::SUM, "all-reduce");
}

PendingCollective Communicator::start_all_reduce_average_(at::Tensor& tensor) {
  if (!averages_in_all_reduce()) {
    throw EngineError(fmt::format("the {} process group has no averaging all-reduce", impl_->backend));
  }
  return start_all_reduce(*impl_, tensor, c10d::ReduceOp::AVG, "all-reduce (average)");
}

void Communicator::broadcast_(at::Tensor& tensor, int root) {
  collective(*impl_, "broadcast", [&] {
    std::vector<at::Tensor> tensors{tensor};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    options.rootTensor = 0;
    c10d_compat::wait(impl_->group->broadcast(tensors, c10d_compat::on_current_stream(options)));
  });
}

std::vector<std::int64_t> Communicator::all_reduce_ints(const std::vector<std::int64_t>& values, IntReduce op) {
  at::Tensor t = at::tensor(values, at::TensorOptions().dtype(at::kLong)).to(impl_->device);
  collective(*impl_, "all-reduce of integers", [&] {
    std::vector<at::Tensor> tensors{t};
    c10d::AllreduceOptions options;
    options.reduceOp = op == IntReduce::kMin   ? c10d::ReduceOp::MIN
                       : op == IntReduce::kMax ? c10d::ReduceOp::MAX
                                               : c10d::ReduceOp::SUM;
    c10d_compat::wait(impl_->group->allreduce(tensors, c10d_compat::on_current_stream(options)));
  });
  const at::Tensor host = t.cpu();
  return std::vector<std::int64_t>(host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel());
}

void Communicator::add_symmetric_memory_group(const std::string& name) const {
#ifdef GRAPHBENCH_SYMMETRIC_MEMORY
  // LibTorch's rendezvous finds the group by name: one over this run's store and NCCL backend.
  auto store = c10::make_intrusive<c10d::PrefixStore>("symm/" + name, impl_->store);
  auto group = c10::make_intrusive<c10d::ProcessGroup>(store, impl_->rank, impl_->world_size);
  group->setBackend(c10::DeviceType::CUDA, c10d::ProcessGroup::BackendType::NCCL, impl_->group);
  group->setDefaultBackend(c10d::ProcessGroup::BackendType::NCCL);
  group->setGroupName(name);
  c10d::register_process_group(name, group);
  impl_->symmetric_groups.push_back(group);
  c10d::symmetric_memory::set_group_info(name, impl_->rank, impl_->world_size, store);
#else
  throw DistributedError("this build has no symmetric memory (it needs LibTorch 2.5 or later built with CUDA and NCCL): "
                         "cannot set up group \"" + name + "\"");
#endif
}

void Communicator::store_set(const std::string& key, const std::string& value) {
  try {
    impl_->kv->set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
    heartbeat();
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("rank {}: writing \"{}\" to the store failed: {}", impl_->rank, key, e.what()));
  }
}

std::string Communicator::store_get(const std::string& key) {
  try {
    impl_->kv->wait({key}, impl_->timeout);
    const std::vector<std::uint8_t> value = impl_->kv->get(key);
    heartbeat();
    return std::string(value.begin(), value.end());
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("rank {}: waiting {} for \"{}\" from the store failed: {}", impl_->rank,
                                       seconds_text(impl_->timeout), key, e.what()));
  }
}

std::string Communicator::store_get(const std::string& key, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  try {
    while (!impl_->kv->check({key})) {
      heartbeat();
      if (std::chrono::steady_clock::now() >= deadline) {
        throw DistributedError(fmt::format("rank {}: \"{}\" did not come from the other ranks within {}", impl_->rank,
                                           key, seconds_text(limit)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  } catch (const DistributedError&) {
    throw;
  } catch (const std::exception& e) {
    throw DistributedError(fmt::format("rank {}: waiting for \"{}\" from the store failed: {}", impl_->rank, key,
                                       e.what()));
  }
  return store_get(key);
}

namespace {
std::vector<std::string> gather_strings(Communicator& communicator, std::int64_t& gathers, const std::string& mine,
                                        bool everyone) {
  const std::string prefix = fmt::format("gather/{}/", gathers++);
  communicator.store_set(prefix + std::to_string(communicator.rank()), mine);
  std::vector<std::string> all;
  if (!everyone && communicator.rank() != 0) return all;
  for (int r = 0; r < communicator.world_size(); ++r) all.push_back(communicator.store_get(prefix + std::to_string(r)));
  return all;
}
}  // namespace

std::vector<std::string> Communicator::gather_to_rank0(const std::string& mine) {
  return gather_strings(*this, impl_->gathers, mine, false);
}

std::vector<std::string> Communicator::all_gather_strings(const std::string& mine) {
  return gather_strings(*this, impl_->gathers, mine, true);
}

std::shared_ptr<Communicator> Communicator::solo(const std::string& name) const {
  auto impl = std::make_unique<Impl>();
  impl->store = c10::make_intrusive<c10d::PrefixStore>("solo/" + name, impl_->store);
  impl->kv = c10::make_intrusive<c10d::PrefixStore>("kv", impl->store);
  impl->device = impl_->device;
  impl->backend = impl_->backend;
  impl->timeout = impl_->timeout;
  impl->solo = true;
  impl->group = make_group(c10::make_intrusive<c10d::PrefixStore>("pg", impl->store), 0, 1, impl->device,
                           impl->timeout, "127.0.0.1");
  return std::make_shared<Communicator>(std::move(impl));
}

bool Communicator::shutdown() {
  if (impl_->shut_down) return true;
  impl_->shut_down = true;
  GroupPtr group = std::move(impl_->group);
  return group ? shutdown_group(group, impl_->timeout) : true;
}

#else  // no c10d backend in this build

std::shared_ptr<Communicator> Communicator::connect(const RankEnv&, at::Device device, std::chrono::milliseconds) {
  throw_no_backend(device);
}
PendingCollective Communicator::start_all_reduce_sum_(at::Tensor&) { return PendingCollective(); }
PendingCollective Communicator::start_all_reduce_average_(at::Tensor&) {
  throw DistributedError("no distributed support in this build: no averaging all-reduce");
}
void Communicator::broadcast_(at::Tensor&, int) {}
std::vector<std::int64_t> Communicator::all_reduce_ints(const std::vector<std::int64_t>& values, IntReduce) {
  return values;
}
void Communicator::store_set(const std::string&, const std::string&) {}
void Communicator::add_symmetric_memory_group(const std::string& name) const {
  throw DistributedError("no distributed support in this build: no symmetric memory for group \"" + name + "\"");
}
std::string Communicator::store_get(const std::string& key) {
  throw DistributedError("no distributed support in this build: no store to read \"" + key + "\" from");
}
std::string Communicator::store_get(const std::string& key, std::chrono::milliseconds) { return store_get(key); }
std::vector<std::string> Communicator::gather_to_rank0(const std::string& mine) { return {mine}; }
std::vector<std::string> Communicator::all_gather_strings(const std::string& mine) { return {mine}; }
std::shared_ptr<Communicator> Communicator::solo(const std::string&) const { throw_no_backend(at::kCPU); }
bool Communicator::shutdown() { return true; }

#endif

}  // namespace graphbench::parallel
