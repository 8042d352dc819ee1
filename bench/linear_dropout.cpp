// linear_dropout: Linear(D_in, H), Dropout, Linear(H, D_out), Dropout; MSE loss; SGD (or Adam)
// — the model of PyTorch's CUDA-graph documentation, as the blog measured it.
//   mode train      one whole training step per call: forward, loss, backward, optimizer update
//   mode inference  the forward pass without dropout
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "common/op_tags.h"
#include "common/training_step_case.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/parallel/gradient_sync/chunked_params.h"
#include "graphbench/parallel/gradient_sync/gradient_chunks.h"
#include "graphbench/parallel/gradient_sync/overlapped_backward.h"
#include "graphbench/parallel/gradient_sync/row_chunked_linear.h"
#include "graphbench/parallel/cases/replicas.h"
#include "graphbench/engine/ops/nn.h"
#include "graphbench/engine/ops/optimizers.h"
#include "graphbench/engine/plan/builder.h"
#include "graphbench/core/suite/gradient_sync_fields.h"

#include "common/torch_nn.h"

namespace graphbench {

namespace {

const std::vector<std::string> kParamNames = {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"};

bool is_weight(const std::string& name) { return name == "fc1.weight" || name == "fc2.weight"; }

struct Dims {
  std::int64_t n, d_in, h, d_out;
};

// One case, data-parallel where `setup` says so (each rank its shard of one global batch). With
// gradient chunks a weight over the cap is computed and all-reduced in row chunks
// (parallel/gradient_sync/row_chunked_linear.h): fc1.weight, whose gradient comes last.
class LinearDropoutCase final : public bench::TrainingStepCase {
 public:
  LinearDropoutCase(const CaseSpec& spec, const CaseContext& context, DataParallelSetup setup = {})
      : TrainingStepCase(spec, context, std::move(setup), bench::param_int(spec, "batch")),
        dims_{batch_, bench::param_int(spec, "in_features"), bench::param_int(spec, "hidden"),
              bench::param_int(spec, "out_features")},
        train_(spec.mode == "train"),
        dropout_(bench::param_number_list(spec, "dropout")),
        optimizer_{bench::param_string(spec, "optimizer"), bench::param_number(spec, "lr"),
                   bench::param_number(spec, "momentum"), bench::param_number(spec, "weight_decay")},
        chunk_bytes_(chunk_cap_bytes(setup_.gradient_sync)) {
    const auto options = at::TensorOptions().device(device_).dtype(at::kFloat);
    // torch::nn's own initialisation, so that the reference modules start from the same weights.
    torch::nn::Linear fc1(dims_.d_in, dims_.h);
    torch::nn::Linear fc2(dims_.h, dims_.d_out);
    initial_.set("fc1.weight", fc1->weight.detach().to(device_));
    initial_.set("fc1.bias", fc1->bias.detach().to(device_));
    initial_.set("fc2.weight", fc2->weight.detach().to(device_));
    initial_.set("fc2.bias", fc2->bias.detach().to(device_));
    // The global batch (the case's batch on each of `ranks` ranks), then this instance's rows.
    data_ = at::randn({dims_.n * setup_.ranks, dims_.d_in}, options);
    target_ = at::randn({dims_.n * setup_.ranks, dims_.d_out}, options);
    if (setup_.shard != DataParallelSetup::kWholeBatch) {
      data_ = parallel::shard_rows(data_, setup_.shard, setup_.ranks).contiguous();
      target_ = parallel::shard_rows(target_, setup_.shard, setup_.ranks).contiguous();
    }
    timed_program_ = build_program(/*dropout_on=*/true);
    validation_program_ = build_program(/*dropout_on=*/false);
    policy_ = train_ ? Policy::train() : Policy::inference();
    feed_ = {{"x", data_}};
    if (train_) {
      feed_["target"] = target_;
      observed_ = kParamNames;
    }

    // Napkin math: each weight read in the forward and the backward pass and written by the update;
    // the matrix products are 2*N*(D_in*H + H*D_out) FLOPs forward, twice that backward.
    const double weights = static_cast<double>(dims_.d_in * dims_.h + dims_.h + dims_.h * dims_.d_out + dims_.d_out);
    const double io = static_cast<double>(rows_ * (dims_.d_in + dims_.d_out));
    const double matmul = 2.0 * static_cast<double>(rows_) * static_cast<double>(dims_.d_in * dims_.h + dims_.h * dims_.d_out);
    cost_.bytes = 4.0 * (train_ ? 3.0 * weights + io : weights + io);
    cost_.flops = train_ ? 3.0 * matmul : matmul;
  }

  int validation_steps() const override { return train_ ? 5 : 1; }
  double rtol(const Variant&) const override { return train_ ? 1e-4 : 1e-5; }
  double atol(const Variant&) const override { return train_ ? 1e-5 : 1e-6; }

  std::vector<TensorSpec> gradient_specs() const override {
    std::vector<TensorSpec> specs;
    for (const auto& name : kParamNames) {
      const TensorSpec spec = spec_of(initial_.at(name));
      const auto chunks = is_weight(name) ? parallel::row_chunk_specs(spec, parallel::plan_row_chunks(spec, chunk_bytes_))
                                          : std::vector<TensorSpec>{spec};
      specs.insert(specs.end(), chunks.begin(), chunks.end());
    }
    return specs;
  }
  std::vector<GradientChunks> chunked_gradients() const override {
    std::vector<GradientChunks> chunked;
    for (const auto& name : kParamNames) {
      if (!is_weight(name)) continue;
      auto rows = parallel::plan_row_chunks(spec_of(initial_.at(name)), chunk_bytes_);
      if (rows.size() > 1) chunked.push_back({name, std::move(rows)});
    }
    return chunked;
  }

 private:
  std::shared_ptr<const Program> build_program(bool dropout_on) const {
    const auto spec = [&](std::vector<std::int64_t> shape) { return TensorSpec{std::move(shape), at::kFloat, device_}; };
    Builder b(train_ ? "linear_dropout_train" : "linear_dropout_forward");
    ValueId x = b.input("x", spec({rows_, dims_.d_in}));
    ValueId w1 = b.param("fc1.weight", spec({dims_.h, dims_.d_in}));
    ValueId b1 = b.param("fc1.bias", spec({dims_.h}));
    ValueId w2 = b.param("fc2.weight", spec({dims_.d_out, dims_.h}));
    ValueId b2 = b.param("fc2.bias", spec({dims_.d_out}));
    // Tags (bench/common/op_tags.h): each Linear (with its dropout) a layer, then the loss and the
    // backward outside them, then the optimizer; what the capture scopes cut the step by.
    if (!train_) {
      b.set_tag(bench::module_tag("fc1", 0));
      ValueId h = ops::linear(b, x, w1, b1);
      b.set_tag(bench::module_tag("fc2", 1));
      b.output("y", ops::linear(b, h, w2, b2));
      b.clear_tag();
      return b.build();
    }
    // Chunked weights (none when chunk_bytes_ is 0): backward differentiates their chunks. Each
    // layer's chunks are cut just before it, so that a layer's ops are one run.
    b.set_tag(bench::module_tag("fc1", 0));
    const parallel::RowChunkedWeight fc1 = parallel::chunk_weight_rows(b, w1, chunk_bytes_);
    ValueId h = ops::dropout(b, parallel::row_chunked_linear(b, x, fc1, b1), dropout_on ? dropout_[0] : 0.0);
    b.set_tag(bench::module_tag("fc2", 1));
    const parallel::RowChunkedWeight fc2 = parallel::chunk_weight_rows(b, w2, chunk_bytes_);
    ValueId y = ops::dropout(b, parallel::row_chunked_linear(b, h, fc2, b2), dropout_on ? dropout_[1] : 0.0);
    b.set_tag(bench::module_tag("loss"));
    ValueId loss = ops::mse_loss(b, y, b.input("target", spec({rows_, dims_.d_out})));
    parallel::ChunkedParams chunked;
    chunked.add(fc1);
    chunked.add(b1);
    chunked.add(fc2);
    chunked.add(b2);
    const std::vector<ValueId>& params = chunked.params();
    b.set_tag(bench::module_tag("backward"));
    const auto grads = chunked.join(b, parallel::step_gradients(b, loss, chunked.differentiated(), setup_));
    b.set_tag(bench::optimizer_tag());
    ops::optimizer_step(b, params, grads, optimizer_);
    b.clear_tag();
    b.output("loss", loss);
    return b.build();
  }

  // The tutorial's way: modules, torch::optim::SGD, training_step(); static data and target.
  ReferenceStep make_reference(bool validation) override {
    if (train_ && optimizer_.name != "sgd") {
      throw EngineError("the reference variants implement the tutorial's torch::optim::SGD only (optimizer is " +
                        optimizer_.name + ")");
    }
    struct State {
      torch::nn::Sequential net;
      std::unique_ptr<torch::optim::SGD> optimizer;
      at::Tensor data, target, output, loss;
    };
    auto s = std::make_shared<State>();
    const double p1 = validation ? 0.0 : dropout_[0];
    const double p2 = validation ? 0.0 : dropout_[1];
    torch::nn::Linear fc1(dims_.d_in, dims_.h);
    torch::nn::Linear fc2(dims_.h, dims_.d_out);
    s->net = torch::nn::Sequential(fc1, torch::nn::Dropout(p1), fc2, torch::nn::Dropout(p2));
    s->net->to(device_);
    auto load_initial = [s, fc1, fc2, initial = &initial_] {
      torch::NoGradGuard no_grad;
      fc1->weight.copy_(initial->at("fc1.weight"));
      fc1->bias.copy_(initial->at("fc1.bias"));
      fc2->weight.copy_(initial->at("fc2.weight"));
      fc2->bias.copy_(initial->at("fc2.bias"));
      if (s->optimizer) bench::zero_momentum_buffers(*s->optimizer);
    };
    load_initial();
    s->data = at::empty_like(data_);
    s->target = at::empty_like(target_);
    ReferenceStep step;
    step.copy_inputs = [s, data = data_, target = target_] {
      s->data.copy_(data);
      s->target.copy_(target);
    };
    if (train_) {
      s->optimizer = std::make_unique<torch::optim::SGD>(
          s->net->parameters(),
          torch::optim::SGDOptions(optimizer_.lr).momentum(optimizer_.momentum).weight_decay(optimizer_.weight_decay));
      step.step = [s] {
        s->optimizer->zero_grad();
        s->output = s->net->forward(s->data);
        s->loss = torch::mse_loss(s->output, s->target);
        s->loss.backward();
        s->optimizer->step();
      };
      step.observe = [s, fc1, fc2] {
        return std::vector<at::Tensor>{s->loss.detach().clone(), fc1->weight.detach().clone(), fc1->bias.detach().clone(),
                                       fc2->weight.detach().clone(), fc2->bias.detach().clone()};
      };
    } else {
      step.step = [s] {
        torch::NoGradGuard no_grad;
        s->output = s->net->forward(s->data);
      };
      step.observe = [s] { return std::vector<at::Tensor>{s->output.detach().clone()}; };
      s->net->eval();
    }
    step.undo_warmup = load_initial;
    return step;
  }

  Dims dims_;
  bool train_;
  std::vector<double> dropout_;
  ops::OptimizerChoice optimizer_;
  std::size_t chunk_bytes_;  // the cap of a weight's gradient chunk; 0: whole (parallel/gradient_sync/gradient_chunks.h)
  at::Tensor data_;
  at::Tensor target_;
};

}  // namespace

// Data-parallel in mode train only: the inference mode has no gradients to all-reduce.
GRAPHBENCH_REGISTER_CASE_WORKLOAD_AS(bench::TrainingStepWorkload<LinearDropoutCase>, linear_dropout_descriptor,
                                     bench::Grad::kOn);

}  // namespace graphbench
