// mnist: the LibTorch MNIST example trained as the CUDA-graph tutorial trains it.
//   kind training   the whole run, the tutorial's lines printed (--use-train-graph, --use-test-graph)
//   kind benchmark  one training step of batch 64 per variant, including the tutorial's own code
//                   (reference: modules and torch::optim::SGD; reference+graph: captured by hand)
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "common/training_step_case.h"
#include "mnist/mnist_data.h"
#include "mnist/mnist_model.h"
#include "mnist/mnist_net.h"
#include "mnist/mnist_training.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/data/mnist_files.h"

#include <fmt/format.h>

namespace graphbench {

namespace {

// One timed training step on the first batch (data-parallel: rank r on the r-th of `ranks` batches).
class MnistStepCase final : public bench::TrainingStepCase {
 public:
  MnistStepCase(const CaseSpec& spec, const CaseContext& context, DataParallelSetup setup = {})
      : TrainingStepCase(spec, context, std::move(setup), bench::param_int(spec, "batch")),
        lr_(bench::param_number(spec, "lr")),
        momentum_(bench::param_number(spec, "momentum")) {
    initial_ = mnist::initial_store(context.device);
    mnist::Split data = mnist::load_split(resolve_mnist_dir(context.data_dir), /*train=*/true, context.device);
    const std::int64_t first = first_row();
    if (first + rows_ > data.images.size(0)) {
      throw InputError(fmt::format("{}: {} ranks x batch {} is more than the {} training images", spec.json_path,
                                   setup_.ranks, batch_, data.images.size(0)));
    }
    images_ = data.images.narrow(0, first, rows_).clone();
    labels_ = data.labels.narrow(0, first, rows_).clone();
    timed_program_ = mnist::build_train_program({rows_, lr_, momentum_, true}, device_, setup_);
    validation_program_ = mnist::build_train_program({rows_, lr_, momentum_, false}, device_, setup_);
    feed_ = {{"x", images_}, {"y", labels_}};
    observed_ = mnist::param_names();
    // Napkin math: 21840 weights read forward and backward and updated; conv FLOPs dominate:
    // conv1 24*24*10*25*2 + conv2 8*8*20*250*2 + fc 2*(320*50 + 50*10) per image, x3 for training.
    const double weights = 0.0 + 10 * 25 + 10 + 20 * 250 + 20 + 320 * 50 + 50 + 50 * 10 + 10;
    cost_.bytes = 4.0 * (3.0 * weights + static_cast<double>(rows_) * (28 * 28 + 2));
    cost_.flops = 3.0 * static_cast<double>(rows_) * (24.0 * 24 * 10 * 25 * 2 + 8.0 * 8 * 20 * 250 * 2 + 2.0 * (320 * 50 + 50 * 10));
  }

  int validation_steps() const override { return 5; }
  double rtol(const Variant&) const override { return 1e-4; }
  double atol(const Variant&) const override { return 1e-5; }

  std::vector<TensorSpec> gradient_specs() const override {
    std::vector<TensorSpec> specs;
    for (const auto& name : mnist::param_names()) specs.push_back(spec_of(initial_.at(name)));
    return specs;
  }

 private:
  // The tutorial's training_step: modules, torch::optim::SGD, static data and targets.
  ReferenceStep make_reference(bool validation) override {
    struct State {
      mnist::Net net;
      std::unique_ptr<torch::optim::SGD> optimizer;
      at::Tensor data, targets, output, loss;
    };
    auto s = std::make_shared<State>();
    s->net->to(device_);
    s->net->train();
    s->optimizer = std::make_unique<torch::optim::SGD>(s->net->parameters(),
                                                       torch::optim::SGDOptions(lr_).momentum(momentum_));
    auto load_initial = [s, initial = &initial_] {
      mnist::load_params(s->net, *initial);
      bench::zero_momentum_buffers(*s->optimizer);
    };
    load_initial();
    s->data = at::empty_like(images_);
    s->targets = at::empty_like(labels_);
    const bool fc_dropout = !validation;
    ReferenceStep step;
    step.copy_inputs = [s, images = images_, labels = labels_] {
      s->data.copy_(images);
      s->targets.copy_(labels);
    };
    step.step = [s, fc_dropout] {
      s->optimizer->zero_grad();
      // Validation: dropout off (eval for the forward only), as the engine's validation program.
      if (!fc_dropout) s->net->eval();
      s->output = s->net->forward(s->data);
      if (!fc_dropout) s->net->train();
      s->loss = torch::nll_loss(s->output, s->targets);
      s->loss.backward();
      s->optimizer->step();
    };
    step.observe = [s] {
      std::vector<at::Tensor> out{s->loss.detach().clone()};
      for (const auto& name : mnist::param_names()) out.push_back(s->net->named_parameters()[name].detach().clone());
      return out;
    };
    step.undo_warmup = load_initial;
    return step;
  }

  double lr_;
  double momentum_;
  at::Tensor images_;
  at::Tensor labels_;
};

class MnistWorkload final : public bench::TrainingStepWorkload<MnistStepCase> {
 public:
  using TrainingStepWorkload::TrainingStepWorkload;

  TrainingSummary train(const CaseSpec& spec, const Variant& variant, const CaseContext& context) const override {
    return mnist::train(training_config(spec, variant, context));
  }

  std::unique_ptr<DataParallelTraining> train_data_parallel(const CaseSpec& spec, const Variant& variant,
                                                            const CaseContext& context,
                                                            const DataParallelSetup& setup) const override {
    mnist::TrainingConfig config = training_config(spec, variant, context, /*announce_data=*/false);
    if (config.order != bench::BatchOrder::kSequential || config.data_on_host) {
      throw InputError(spec.json_path + ": data-parallel training reads each rank's shard of the data in order, from "
                                        "device memory: order \"shuffled\" (--shuffle) and data \"host\" "
                                        "(--data-on-host) are for one process");
    }
    return std::make_unique<DataParallelTraining>(mnist::train_data_parallel(config, setup));
  }

 private:
  // `announce_data`: print which data the run reads and how (data-parallel runs say it themselves).
  static mnist::TrainingConfig training_config(const CaseSpec& spec, const Variant& variant, const CaseContext& context,
                                               bool announce_data = true) {
    if (variant.source() != StepSource::kEngine || variant.inputs_in_place()) {
      throw EngineError("training runs support the eager, static and graph variants; " + variant.name() +
                        " is for kind benchmark (one timed step)");
    }
    mnist::TrainingConfig config;
    const MnistDirChoice data = locate_mnist_dir(context.data_dir);
    config.data_dir = data.dir;
    config.data_on_host = context.data_on_host.value_or(bench::param_string(spec, "data") == "host");
    config.order = context.shuffle.value_or(bench::param_string(spec, "order") == "shuffled") ? bench::BatchOrder::kShuffled
                                                                                           : bench::BatchOrder::kSequential;
    config.seed = context.seed;
    if (announce_data && !context.quiet && context.out != nullptr) {
      *context.out << fmt::format("Data: {} (from {}); {}, {} order\n", data.dir, data.source,
                                  config.data_on_host ? "in host memory, every batch copied to the device"
                                                      : "on the device, every batch gathered there by the step",
                                  bench::to_string(config.order));
    }
    config.device = context.device;
    config.epochs = context.epochs.value_or(static_cast<int>(bench::param_int(spec, "epochs")));
    config.batch = bench::param_int(spec, "batch");
    config.test_batch = bench::param_int(spec, "test_batch");
    config.lr = bench::param_number(spec, "lr");
    config.momentum = bench::param_number(spec, "momentum");
    config.log_interval = static_cast<int>(bench::param_int(spec, "log_interval"));
    config.train_executor = variant.execution();
    const bool test_graph = context.use_test_graph.value_or(bench::param_string(spec, "test_executor") == "graph");
    config.test_executor = test_graph ? ExecutorKind::kGraph : ExecutorKind::kEager;
    config.train_last_short_batch =
        (context.last_batch.empty() ? bench::param_string(spec, "last_batch") : context.last_batch) == "capture";
    config.out = context.quiet ? nullptr : context.out;
    config.progress = context.quiet ? nullptr : context.progress;
    config.time_limit = context.training_limit;
    return config;
  }
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(MnistWorkload, mnist_descriptor, bench::Grad::kOn);

}  // namespace graphbench
