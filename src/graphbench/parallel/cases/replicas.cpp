#include "graphbench/parallel/cases/replicas.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/cases/agreement.h"

#include <ATen/core/grad_mode.h>
#include <fmt/format.h>

#include <map>

namespace graphbench::parallel {

void broadcast_store(Communicator& communicator, ModelStore& store, int root) {
  at::NoGradGuard no_grad;
  // Entries grouped by dtype, in name order (the same on every rank).
  std::map<at::ScalarType, std::vector<std::string>> by_dtype;
  for (const auto& name : store.names()) by_dtype[store.at(name).scalar_type()].push_back(name);
  for (const auto& [dtype, names] : by_dtype) {
    std::vector<at::Tensor> parts;
    for (const auto& name : names) parts.push_back(store.at(name).detach().reshape({-1}).to(communicator.device()));
    at::Tensor flat = at::cat(parts);
    communicator.broadcast_(flat, root);
    std::int64_t offset = 0;
    for (const auto& name : names) {
      at::Tensor& entry = store.at(name);
      entry.detach().copy_(flat.narrow(0, offset, entry.numel()).view(entry.sizes()));
      offset += entry.numel();
    }
  }
}

Shard shard_of(std::int64_t total, int rank, int world) {
  if (world < 1 || rank < 0 || rank >= world || total < 0) {
    throw EngineError(fmt::format("shard_of: rank {} of {} over {} items", rank, world, total));
  }
  const std::int64_t size = total / world;
  return Shard{size * rank, size};
}

at::Tensor shard_rows(const at::Tensor& global, int rank, int world) {
  const Shard s = shard_of(global.size(0), rank, world);
  return global.narrow(0, s.begin, s.size);
}

DataParallelSetup shard_setup(const Communicator& communicator, const CaseSpec& spec) {
  DataParallelSetup setup;
  setup.ranks = communicator.world_size();
  setup.shard = communicator.rank();
  setup.gradient_sync = spec.gradient_sync;
  return setup;
}

std::string make_on_every_rank(const std::shared_ptr<Communicator>& communicator, const CaseSpec& spec,
                               const CaseContext& context, const std::shared_ptr<GradientBucketLog>& bucket_log,
                               const std::function<void(const DataParallelSetup&)>& make) {
  std::string error;
  bool bad_input = false;
  try {
    DataParallelSetup setup = shard_setup(*communicator, spec);
    setup.communicator = communicator;
    setup.bucket_log = bucket_log;
    at::manual_seed(context.seed);
    make(setup);
  } catch (const InputError& e) {
    error = e.what();
    bad_input = true;
  } catch (const std::exception& e) {
    error = e.what();
  }
  const std::string agreed = agree_on_errors(*communicator, error);
  if (bad_input) throw InputError(error);
  return agreed;
}

std::unique_ptr<DataParallelCase> instance_from(const Workload& workload, const CaseSpec& spec,
                                                const CaseContext& context, const DataParallelSetup& setup,
                                                const ModelStore& initial_params) {
  at::manual_seed(context.seed);
  auto instance = workload.instantiate_data_parallel(spec, context, setup);
  if (!instance) throw EngineError(fmt::format("workload {} made no instance of its data-parallel case", spec.workload));
  instance->initial_params().copy_values_from(initial_params);
  return instance;
}

std::vector<VariantRecord> still_ok(const std::vector<VariantRecord>& variants, std::vector<ResultRecord>& records) {
  records.assign(variants.size(), ResultRecord{});
  std::vector<VariantRecord> ok;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (variants[i].record->status == RecordStatus::kOk) ok.push_back({variants[i].variant, &records[i]});
  }
  return ok;
}

}  // namespace graphbench::parallel
