// The host way of feeding a run (mnist_training_data.h): every batch copied to the device and fed.
#include "mnist/mnist_training_data.h"

#include <map>

namespace graphbench::mnist {

namespace {

class HostTrainingData final : public TrainingData {
 public:
  HostTrainingData(Splits splits, const DataOptions& options)
      : options_(options),
        train_split_(std::move(splits.train)),
        test_split_(std::move(splits.test)),
        train_program_(build_train_program(options.program, options.device)),
        test_program_(build_test_program(options.test.batch, options.device)) {}

  const char* placement() const override { return "host"; }

  void prepare(Executor& train, Executor& test) override {
    // One binding per batch shape; the first batches stand for all of their shape.
    train.prepare(train_program_, feed(train_split_, at::Tensor(), 0, options_.train.batch));
    if (options_.train.has_short()) {
      train.prepare(train_program_, feed(train_split_, at::Tensor(), 0, options_.train.short_rows()));
    }
    test.prepare(test_program_, feed(test_split_, at::Tensor(), 0, options_.test.batch));
    if (options_.test.has_short()) test.prepare(test_program_, feed(test_split_, at::Tensor(), 0, options_.test.short_rows()));
  }

  void begin_epoch(int epoch) override {
    order_ = options_.order == bench::BatchOrder::kShuffled
                 ? bench::epoch_order(train_split_.size(), options_.order, options_.seed, epoch)
                 : at::Tensor();
    kept_losses_.clear();
  }

  void train_step(Executor& train, std::int64_t step, bool keep_loss) override {
    const BatchPlan& plan = options_.train;
    train.step(train_program_, feed(train_split_, order_, step * plan.batch, plan.rows(step)));
    // The output is a slot the next step overwrites: keep a device copy, read at the end.
    if (keep_loss) kept_losses_[step] = train.outputs()[0].detach().clone();
  }

  at::Tensor loss_of(std::int64_t step) const override { return kept_losses_.at(step); }

  TestTotals test(Executor& test) override {
    const auto on_device = at::TensorOptions().device(options_.device);
    TestTotals totals{at::zeros({}, on_device.dtype(at::kDouble)), at::zeros({}, on_device.dtype(at::kLong))};
    const BatchPlan& plan = options_.test;
    for (std::int64_t step = 0; step < plan.steps(); ++step) {
      test.step(test_program_, feed(test_split_, at::Tensor(), step * plan.batch, plan.rows(step)));
      totals.loss_sum += test.outputs()[0];
      totals.correct += test.outputs()[1];
    }
    return totals;
  }

 private:
  // Samples [start, start + rows) of `split` in `order` (undefined: sequential), copied to the device.
  Feed feed(const Split& split, const at::Tensor& order, std::int64_t start, std::int64_t rows) const {
    at::Tensor images;
    at::Tensor labels;
    if (order.defined()) {
      const at::Tensor indices = order.narrow(0, start, rows);
      images = split.images.index_select(0, indices);
      labels = split.labels.index_select(0, indices);
    } else {
      images = split.images.narrow(0, start, rows);
      labels = split.labels.narrow(0, start, rows);
    }
    return Feed{{"x", images.to(options_.device)}, {"y", labels.to(options_.device)}};
  }

  DataOptions options_;
  Split train_split_;
  Split test_split_;
  std::shared_ptr<const Program> train_program_;
  std::shared_ptr<const Program> test_program_;
  at::Tensor order_;
  std::map<std::int64_t, at::Tensor> kept_losses_;
};

}  // namespace

std::unique_ptr<TrainingData> make_host_training_data(Splits splits, const DataOptions& options) {
  return std::make_unique<HostTrainingData>(std::move(splits), options);
}

}  // namespace graphbench::mnist
