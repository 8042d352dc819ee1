// The device way of feeding a run (mnist_training_data.h): programs gather their batches at a counter.
#include "mnist/device_batches.h"
#include "mnist/mnist_training_data.h"

#include <limits>

namespace graphbench::mnist {

namespace {

const Feed kNoFeed;  // gathered programs have no inputs

class DeviceTrainingData final : public TrainingData {
 public:
  DeviceTrainingData(Splits splits, const DataOptions& options, ModelStore& store)
      : options_(options),
        train_batches_("train", std::move(splits.train.images), std::move(splits.train.labels)),
        test_batches_("test", std::move(splits.test.images), std::move(splits.test.labels)) {
    train_batches_.install(store);
    test_batches_.install(store);
    const auto on_device = at::TensorOptions().device(options.device);
    // The metrics the programs update, made here so that this object holds the store's tensors.
    loss_log_ = at::full({options.train.steps()}, std::numeric_limits<double>::quiet_NaN(), on_device.dtype(at::kFloat));
    loss_total_ = at::zeros({}, on_device.dtype(at::kDouble));
    correct_total_ = at::zeros({}, on_device.dtype(at::kLong));
    store.set("train.loss_log", loss_log_);
    store.set("test.loss_total", loss_total_);
    store.set("test.correct_total", correct_total_);

    const BatchPlan& train = options.train;
    train_full_ = build_gathered_train_program(
        options.program, {&train_batches_, {train.batch, train.batch, 0}, "train", train.steps()});
    if (train.has_short()) {
      // At step full_steps() the counter points just past the last full batch: the short one.
      train_short_ = build_gathered_train_program(
          options.program, {&train_batches_, {train.short_rows(), train.batch, 0}, "train", train.steps()});
    }
    const BatchPlan& test = options.test;
    test_full_ = build_gathered_test_program({&test_batches_, {test.batch, test.batch, 0}, "test", 0});
    if (test.has_short()) {
      test_short_ = build_gathered_test_program({&test_batches_, {test.short_rows(), test.batch, 0}, "test", 0});
    }
  }

  const char* placement() const override { return "device"; }

  void prepare(Executor& train, Executor& test) override {
    for (const auto* program : {&train_full_, &train_short_}) {
      if (*program) train.prepare(*program, kNoFeed);
    }
    for (const auto* program : {&test_full_, &test_short_}) {
      if (*program) test.prepare(*program, kNoFeed);
    }
  }

  void begin_epoch(int epoch) override {
    at::Tensor order;
    if (options_.order == bench::BatchOrder::kShuffled) {
      order = bench::epoch_order(train_batches_.size(), options_.order, options_.seed, epoch);
    }
    train_batches_.begin_epoch(order);
  }

  void train_step(Executor& train, std::int64_t step, bool keep_loss) override {
    (void)keep_loss;  // every step's loss is logged on the device anyway
    train.step(step < options_.train.full_steps() ? train_full_ : train_short_, kNoFeed);
  }

  at::Tensor loss_of(std::int64_t step) const override { return loss_log_.select(0, step); }

  TestTotals test(Executor& test) override {
    test_batches_.begin_epoch(at::Tensor());
    loss_total_.zero_();
    correct_total_.zero_();
    const BatchPlan& plan = options_.test;
    for (std::int64_t step = 0; step < plan.steps(); ++step) {
      test.step(step < plan.full_steps() ? test_full_ : test_short_, kNoFeed);
    }
    return TestTotals{loss_total_, correct_total_};
  }

 private:
  DataOptions options_;
  bench::DeviceBatches train_batches_;
  bench::DeviceBatches test_batches_;
  at::Tensor loss_log_;
  at::Tensor loss_total_;
  at::Tensor correct_total_;
  std::shared_ptr<const Program> train_full_;
  std::shared_ptr<const Program> train_short_;
  std::shared_ptr<const Program> test_full_;
  std::shared_ptr<const Program> test_short_;
};

}  // namespace

std::unique_ptr<TrainingData> make_device_training_data(Splits splits, const DataOptions& options, ModelStore& store) {
  return std::make_unique<DeviceTrainingData>(std::move(splits), options, store);
}

}  // namespace graphbench::mnist
