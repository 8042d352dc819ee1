#include "graphbench/parallel/communication/peer_exchange.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/base/host_name.h"
#include "graphbench/parallel/communication/peer_kernels.h"

#ifdef GRAPHBENCH_WITH_CUDA
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#endif
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace graphbench::parallel {

std::string peer_exchange_unavailable(at::Device device) {
  if (!device.is_cuda()) return "it copies between GPUs, and this run's tensors are on the CPU";
#ifdef GRAPHBENCH_WITH_CUDA
  return "";
#else
  return "it copies between GPUs, and this graphbench was built without CUDA";
#endif
}

#ifdef GRAPHBENCH_WITH_CUDA

namespace {

constexpr std::size_t kAlign = 256;
// How long a rank waits for the others to unmap its block before freeing it.
constexpr std::chrono::milliseconds kCloseWait{30000};

std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

std::string to_hex(const void* data, std::size_t size) {
  std::string out;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) out += fmt::format("{:02x}", bytes[i]);
  return out;
}

void from_hex(const std::string& text, void* data, std::size_t size) {
  if (text.size() != 2 * size) throw DistributedError("copy-engine all-reduce: a malformed handle from a peer");
  auto* bytes = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<unsigned char>(std::stoul(text.substr(2 * i, 2), nullptr, 16));
  }
}

void check(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: leave no error behind for the next call
    throw DistributedError(fmt::format("{}: {}", what, cudaGetErrorString(status)));
  }
}

// The driver's functions reached through the runtime, not linked, so a CUDA build starts without a
// driver (CI's CPU tests). 12000: the driver API version of cuda.h's signatures for these names.
template <typename Fn>
Fn driver_function(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  const cudaError_t status = cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found);
#else
  const cudaError_t status = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found);
#endif
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || fn == nullptr) {
    (void)cudaGetLastError();
    throw DistributedError(fmt::format("copy-engine all-reduce: the CUDA driver has no {} ({})", name,
                                       cudaGetErrorString(status)));
  }
  return reinterpret_cast<Fn>(fn);
}

CUresult stream_write_value32(CUstream stream, CUdeviceptr address, cuuint32_t value, unsigned int flags) {
  static const auto fn = driver_function<decltype(&::cuStreamWriteValue32)>("cuStreamWriteValue32");
  return fn(stream, address, value, flags);
}

void check(CUresult status, const char* what) {
  if (status != CUDA_SUCCESS) {
    static const auto error_string = driver_function<decltype(&::cuGetErrorString)>("cuGetErrorString");
    const char* text = nullptr;
    error_string(status, &text);
    throw DistributedError(fmt::format("copy-engine all-reduce: {}: {}", what, text ? text : "unknown CUDA error"));
  }
}

// What a rank tells the others of its block: "host|pid|serial|device|pointer|ipc handle|error".
struct BlockInfo {
  std::string host;
  long pid = 0;
  std::uint64_t serial = 0;  // exchanges opened in this process before this one
  int device = 0;
  std::uintptr_t pointer = 0;
  std::string handle;  // hex
  std::string error;   // why this rank cannot take part ("" when it can)
};

std::string encode(const BlockInfo& b) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}", b.host, b.pid, b.serial, b.device, b.pointer, b.handle, b.error);
}

BlockInfo decode(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (int i = 0; i < 6; ++i) {
    const std::size_t bar = text.find('|', start);
    if (bar == std::string::npos) throw DistributedError("copy-engine all-reduce: a malformed message from a peer");
    fields.push_back(text.substr(start, bar - start));
    start = bar + 1;
  }
  BlockInfo b;
  b.host = fields[0];
  b.pid = std::stol(fields[1]);
  b.serial = std::stoull(fields[2]);
  b.device = std::stoi(fields[3]);
  b.pointer = static_cast<std::uintptr_t>(std::stoull(fields[4]));
  b.handle = fields[5];
  b.error = text.substr(start);
  return b;
}

// Throws on every rank the first rank's error found, through the store (ranks sharing a GPU cannot
// use NCCL, as agree_on_errors would).
void throw_if_any(Communicator& comm, const std::string& mine, const char* stage) {
  const std::vector<std::string> errors = comm.all_gather_strings(mine);
  for (std::size_t r = 0; r < errors.size(); ++r) {
    if (!errors[r].empty()) {
      throw DistributedError(fmt::format("copy-engine all-reduce: {} failed on rank {} of {}: {}", stage, r,
                                         errors.size(), errors[r]));
    }
  }
}

std::atomic<std::uint64_t> exchanges_opened{0};

}  // namespace

bool peer_exchange_possible(Communicator& comm) {
  if (!comm.node_layout().one_node()) return false;  // the same layout on every rank: no rank asks
  const at::Device device = comm.device();
  const bool usable = peer_exchange_unavailable(device).empty();
  const std::vector<std::string> places =
      comm.all_gather_strings(usable ? fmt::format("{}|{}", host_name(), device.index()) : "");
  bool reaches = usable;
  for (std::size_t r = 0; r < places.size() && reaches; ++r) {
    if (static_cast<int>(r) == comm.rank()) continue;
    const std::size_t bar = places[r].rfind('|');
    if (places[r].empty() || bar == std::string::npos || places[r].substr(0, bar) != host_name()) {
      reaches = false;  // a rank that cannot take part, or on another host
    } else {
      const int peer = std::stoi(places[r].substr(bar + 1));
      int can = 0;
      reaches = peer != device.index() && cudaDeviceCanAccessPeer(&can, device.index(), peer) == cudaSuccess && can;
      (void)cudaGetLastError();
    }
  }
  // The same answer on every rank, even where peer access is not symmetric.
  for (const std::string& answer : comm.all_gather_strings(reaches ? "1" : "0")) {
    if (answer != "1") return false;
  }
  return true;
}

struct PeerExchange::Impl {
  std::shared_ptr<Communicator> comm;
  int rank = 0;
  int world = 1;
  at::Device device = at::kCPU;
  std::size_t slot_bytes = 0;
  std::size_t flags_bytes = 0;
  std::size_t buckets = 0;
  char* block = nullptr;           // this rank's
  std::vector<char*> blocks;       // by rank: this rank's, or the peer's mapped here
  std::vector<bool> ipc_mapped;    // by rank: opened through CUDA IPC (closed at the end)
  std::string id;                  // names the store keys of this exchange

  std::size_t ready_flag(std::size_t bucket, int from) const { return bucket * static_cast<std::size_t>(world) + from; }
  std::size_t free_flag(int from) const { return buckets * static_cast<std::size_t>(world) + from; }
  CUdeviceptr flag(int on_rank, std::size_t index) const {
    return reinterpret_cast<CUdeviceptr>(blocks[on_rank] + index * sizeof(std::uint32_t));
  }
  // Rank `of`'s slot in rank `on`'s block.
  char* slot(int on, int of) const { return blocks[on] + flags_bytes + static_cast<std::size_t>(of) * slot_bytes; }
  CUstream stream() const {
    return reinterpret_cast<CUstream>(c10::cuda::getCurrentCUDAStream(device.index()).stream());
  }

  // A stream memory write: waits for nothing, needs no multiprocessor, comes after the queued copies.
  void raise(int on_rank, std::size_t index) const {
    check(stream_write_value32(stream(), flag(on_rank, index), 1, CU_STREAM_WRITE_VALUE_DEFAULT), "raising a flag");
  }
  // Waits (a kernel: peer_kernels.h) until flag `index`, raised by rank `from`, is up, then lowers it.
  void take(std::size_t index, int from) const {
    check(launch_take_flag(reinterpret_cast<std::uint32_t*>(flag(rank, index)), from,
                           static_cast<std::uint64_t>(comm->timeout().count()),
                           c10::cuda::getCurrentCUDAStream(device.index()).stream()),
          "copy-engine all-reduce: waiting for a flag");
  }

  // Unmaps the peers' blocks, meets the others, frees this block (kept where a rank did not come).
  void close() noexcept {
    const c10::cuda::CUDAGuard guard(device.index());
    (void)cudaDeviceSynchronize();
    for (std::size_t r = 0; r < blocks.size(); ++r) {
      if (ipc_mapped[r]) (void)cudaIpcCloseMemHandle(blocks[r]);
    }
    bool everyone = true;
    if (!id.empty()) {
      try {
        comm->store_set(fmt::format("{}/closed/{}", id, rank), "");
        for (int r = 0; r < world; ++r) {
          if (r != rank) comm->store_get(fmt::format("{}/closed/{}", id, r), kCloseWait);
        }
      } catch (const std::exception&) {
        everyone = false;
      }
    }
    if (everyone && block) (void)cudaFree(block);
    (void)cudaGetLastError();
    block = nullptr;
  }

  void open() {
    const c10::cuda::CUDAGuard guard(device.index());
    BlockInfo mine;
    mine.host = host_name();
    mine.pid = static_cast<long>(getpid());
    mine.serial = exchanges_opened++;
    mine.device = device.index();
    try {
      check(cudaMalloc(reinterpret_cast<void**>(&block), flags_bytes + static_cast<std::size_t>(world) * slot_bytes),
            fmt::format("allocating {} bytes on {}", flags_bytes + world * slot_bytes, device.str()));
      check(cudaMemset(block, 0, flags_bytes), "clearing the flags");
      // At first every peer may write into its slot here: its "free" flag raised.
      const std::vector<std::uint32_t> ones(static_cast<std::size_t>(world), 1);
      check(cudaMemcpy(block + free_flag(0) * sizeof(std::uint32_t), ones.data(), ones.size() * sizeof(std::uint32_t),
                       cudaMemcpyHostToDevice),
            "raising the free flags");
      cudaIpcMemHandle_t handle;
      check(cudaIpcGetMemHandle(&handle, block), "sharing the block (cudaIpcGetMemHandle)");
      mine.pointer = reinterpret_cast<std::uintptr_t>(block);
      mine.handle = to_hex(&handle, sizeof(handle));
    } catch (const DistributedError& e) {
      mine.error = e.what();
    }
    std::vector<BlockInfo> infos;
    for (const std::string& text : comm->all_gather_strings(encode(mine))) infos.push_back(decode(text));
    // Rank 0's process and count name the keys: new for every exchange, the same on every rank.
    id = fmt::format("peer-exchange/{}/{}/{}", infos[0].host, infos[0].pid, infos[0].serial);
    std::string error;
    for (std::size_t r = 0; r < infos.size() && error.empty(); ++r) {
      if (!infos[r].error.empty()) {
        error = fmt::format("rank {}: {}", r, infos[r].error);
      } else if (infos[r].host != infos[0].host) {
        error = fmt::format("it needs every rank on one host (rank 0 on {}, rank {} on {})", infos[0].host, r,
                            infos[r].host);
      }
    }
    blocks.assign(static_cast<std::size_t>(world), nullptr);
    ipc_mapped.assign(static_cast<std::size_t>(world), false);
    blocks[static_cast<std::size_t>(rank)] = block;
    std::string map_error;
    for (int r = 0; r < world && error.empty() && map_error.empty(); ++r) {
      if (r == rank) continue;
      const BlockInfo& peer = infos[static_cast<std::size_t>(r)];
      try {
        if (peer.pid == mine.pid) {
          // A rank of this process: its pointer, once this GPU may reach that one.
          if (peer.device != mine.device) {
            int can = 0;
            check(cudaDeviceCanAccessPeer(&can, mine.device, peer.device), "asking for peer access");
            if (!can) {
              throw DistributedError(
                  fmt::format("GPU {} cannot reach GPU {} (no peer access)", mine.device, peer.device));
            }
            const cudaError_t enabled = cudaDeviceEnablePeerAccess(peer.device, 0);
            if (enabled != cudaErrorPeerAccessAlreadyEnabled) check(enabled, "enabling peer access");
            (void)cudaGetLastError();
          }
          blocks[static_cast<std::size_t>(r)] = reinterpret_cast<char*>(peer.pointer);
        } else {
          cudaIpcMemHandle_t handle;
          from_hex(peer.handle, &handle, sizeof(handle));
          void* mapped = nullptr;
          check(cudaIpcOpenMemHandle(&mapped, handle, cudaIpcMemLazyEnablePeerAccess),
                fmt::format("mapping rank {}'s block (cudaIpcOpenMemHandle; the GPUs must reach each other)", r));
          blocks[static_cast<std::size_t>(r)] = static_cast<char*>(mapped);
          ipc_mapped[static_cast<std::size_t>(r)] = true;
        }
      } catch (const DistributedError& e) {
        map_error = e.what();
      }
    }
    if (!error.empty()) {
      close();
      throw DistributedError("copy-engine all-reduce: " + error);
    }
    try {
      throw_if_any(*comm, map_error, "mapping the peers' memory");
    } catch (const DistributedError&) {
      close();
      throw;
    }
  }
};

PeerExchange::PeerExchange(std::shared_ptr<Communicator> communicator, std::size_t slot_bytes, std::size_t buckets)
    : impl_(std::make_unique<Impl>()) {
  if (!communicator) throw EngineError("PeerExchange: no communicator");
  if (const std::string why = peer_exchange_unavailable(communicator->device()); !why.empty()) {
    throw DistributedError("copy-engine all-reduce: " + why);
  }
  impl_->comm = std::move(communicator);
  impl_->rank = impl_->comm->rank();
  impl_->world = impl_->comm->world_size();
  impl_->device = impl_->comm->device();
  impl_->slot_bytes = round_up(std::max<std::size_t>(slot_bytes, 1));
  impl_->buckets = buckets;
  impl_->flags_bytes = round_up((buckets + 1) * static_cast<std::size_t>(impl_->world) * sizeof(std::uint32_t));
  impl_->open();
}

PeerExchange::~PeerExchange() { impl_->close(); }

at::Tensor PeerExchange::own_slot(std::size_t offset, std::int64_t numel, at::ScalarType dtype) const {
  if (offset + static_cast<std::size_t>(numel) * c10::elementSize(dtype) > impl_->slot_bytes) {
    throw EngineError(fmt::format("copy-engine all-reduce: {} elements at byte {} overrun a slot of {} bytes", numel,
                                  offset, impl_->slot_bytes));
  }
  // Only this rank's own block becomes a tensor (a peer's mapping belongs to the peer's GPU).
  return at::from_blob(impl_->slot(impl_->rank, impl_->rank) + offset, {numel},
                       at::TensorOptions().dtype(dtype).device(impl_->device));
}

void PeerExchange::begin_step() {
  for (int r = 0; r < impl_->world; ++r) {
    if (r != impl_->rank) impl_->take(impl_->free_flag(r), r);
  }
}

void PeerExchange::send(std::size_t bucket, std::size_t offset, const at::Tensor& data) {
  const auto bytes = static_cast<std::size_t>(data.nbytes());
  if (!data.is_contiguous() || offset + bytes > impl_->slot_bytes) {
    throw EngineError(fmt::format("copy-engine all-reduce: bucket {} ({} bytes at byte {}) is not contiguous or "
                                  "overruns a slot of {} bytes", bucket, bytes, offset, impl_->slot_bytes));
  }
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream(impl_->device.index()).stream();
  for (int r = 0; r < impl_->world; ++r) {
    if (r == impl_->rank) continue;
    check(cudaMemcpyAsync(impl_->slot(r, impl_->rank) + offset, data.data_ptr(), bytes, cudaMemcpyDefault, stream),
          fmt::format("copy-engine all-reduce: copying bucket {} to rank {}", bucket, r));
    impl_->raise(r, impl_->ready_flag(bucket, impl_->rank));
  }
}

void PeerExchange::sum(std::size_t bucket, std::size_t offset, const at::Tensor& data, at::Tensor& out,
                       double scale) {
  for (int r = 0; r < impl_->world; ++r) {
    if (r != impl_->rank) impl_->take(impl_->ready_flag(bucket, r), r);
  }
  const int world = impl_->world;
  const std::int64_t n = data.numel();
  std::vector<const void*> buckets(static_cast<std::size_t>(world));
  for (int r = 0; r < world; ++r) {
    buckets[r] = r == impl_->rank ? data.data_ptr() : impl_->slot(impl_->rank, r) + offset;
  }
  // In rank order on every rank: the same sum, bit for bit. One kernel where it can.
  const bool fits = world <= kMaxKernelRanks && data.is_contiguous() && out.is_contiguous() && out.numel() == n &&
                    out.scalar_type() == at::kFloat;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream(impl_->device.index()).stream();
  if (fits && data.scalar_type() == at::kFloat) {
    check(launch_average_float(reinterpret_cast<const float* const*>(buckets.data()), world, n,
                               static_cast<float>(scale), out.data_ptr<float>(), stream),
          "copy-engine all-reduce: averaging a bucket");
    return;
  }
  if (fits && data.scalar_type() == at::kBFloat16 && scale == 1.0) {
    check(launch_sum_bfloat16_to_float(reinterpret_cast<const std::uint16_t* const*>(buckets.data()), world, n,
                                       out.data_ptr<float>(), stream),
          "copy-engine all-reduce: summing a bucket");
    return;
  }
  const auto options = at::TensorOptions().dtype(data.scalar_type()).device(impl_->device);
  const auto bucket_of = [&](int r) { return at::from_blob(const_cast<void*>(buckets[r]), {n}, options); };
  at::Tensor total = out.scalar_type() == data.scalar_type() ? out : at::empty({n}, options);
  if (world == 1) total.copy_(bucket_of(0));
  if (world > 1) at::add_out(total, bucket_of(0), bucket_of(1));
  for (int r = 2; r < world; ++r) total.add_(bucket_of(r));
  if (scale != 1.0) total.mul_(scale);
  if (!total.is_same(out)) out.copy_(total);
}

void PeerExchange::end_step() {
  for (int r = 0; r < impl_->world; ++r) {
    if (r != impl_->rank) impl_->raise(r, impl_->free_flag(impl_->rank));
  }
}

#else  // no CUDA in this build

bool peer_exchange_possible(Communicator&) { return false; }

struct PeerExchange::Impl {};

PeerExchange::PeerExchange(std::shared_ptr<Communicator> communicator, std::size_t, std::size_t) {
  throw DistributedError("copy-engine all-reduce: " +
                         peer_exchange_unavailable(communicator ? communicator->device() : at::Device(at::kCPU)));
}
PeerExchange::~PeerExchange() = default;
at::Tensor PeerExchange::own_slot(std::size_t, std::int64_t, at::ScalarType) const { return {}; }
void PeerExchange::begin_step() {}
void PeerExchange::send(std::size_t, std::size_t, const at::Tensor&) {}
void PeerExchange::sum(std::size_t, std::size_t, const at::Tensor&, at::Tensor&, double) {}
void PeerExchange::end_step() {}

#endif

}  // namespace graphbench::parallel
