// early_exit: residual blocks with a head after each, stopping at the first head whose softmax
// confidence is above `threshold` (examples/early_exit.py's `if ...item() > t: break`).
//   eager        after each head the host reads the confidence (.item(), a sync)
//   graph        a graph per block and head, the host deciding between them (as torch.compile breaks)
//   conditional  one CUDA graph, the device deciding through IF nodes
// Every variant writes the stopping head's logits and depth for validation. Threshold 0 stops at the
// first head, above 1 never early, in between the data decide (configs/control-flow.json).
#include "common/case_helpers.h"
#include "common/case_workload.h"
#include "common/conditional_runner.h"

#include "graphbench/engine/exec/conditional_graph.h"

#include <ATen/ATen.h>
#include <fmt/format.h>
#ifdef GRAPHBENCH_WITH_CUDA
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <memory>

namespace graphbench {

namespace {

// The model's weights and the arithmetic of one block and one head; every variant calls these.
struct EarlyExitModel {
  std::vector<at::Tensor> block_w, block_b, head_w, head_b;

  EarlyExitModel(std::int64_t width, std::int64_t classes, std::int64_t blocks, const at::TensorOptions& options) {
    for (std::int64_t k = 0; k < blocks; ++k) {
      block_w.push_back(at::randn({width, width}, options) / std::sqrt(static_cast<double>(width)));
      block_b.push_back(at::randn({width}, options) * 0.1);
      // Later heads are sharper, so that confidence grows with depth and the data decide where to stop.
      head_w.push_back(at::randn({classes, width}, options) * (0.05 * static_cast<double>(k + 1)));
      head_b.push_back(at::zeros({classes}, options));
    }
  }
  std::int64_t blocks() const { return static_cast<std::int64_t>(block_w.size()); }
  at::Tensor block(std::size_t k, const at::Tensor& x) const { return x + at::relu(at::linear(x, block_w[k], block_b[k])); }
  at::Tensor head(std::size_t k, const at::Tensor& x) const { return at::linear(x, head_w[k], head_b[k]); }
  static at::Tensor confidence(const at::Tensor& logits) { return at::softmax(logits, -1).amax(); }
};

// What every variant leaves after a step: the stopping head's logits and its depth.
struct ExitOutputs {
  at::Tensor logits, depth;
  std::vector<at::Tensor> observe() const { return {logits.clone(), depth.clone()}; }
};

class EagerExitRunner final : public VariantRunner {
 public:
  EagerExitRunner(std::shared_ptr<const EarlyExitModel> model, at::Tensor input, double threshold)
      : model_(std::move(model)), input_(std::move(input)), threshold_(threshold) {}
  void step() override {
    at::Tensor x = input_;
    for (std::int64_t k = 0; k < model_->blocks(); ++k) {
      x = model_->block(k, x);
      out_.logits = model_->head(k, x);
      out_.depth = at::full({1}, static_cast<double>(k + 1), input_.options());
      if (k + 1 < model_->blocks() && EarlyExitModel::confidence(out_.logits).item<float>() > threshold_) break;
    }
  }
  std::vector<at::Tensor> observe() override { return out_.observe(); }

 private:
  std::shared_ptr<const EarlyExitModel> model_;
  at::Tensor input_;
  double threshold_;
  ExitOutputs out_;
};

// Piece k runs block and head k on what piece k - 1 left, writes logits and depth, returns its confidence.
struct ExitPieces {
  std::shared_ptr<const EarlyExitModel> model;
  at::Tensor input;                 // fixed: every step copies the case's input here
  std::vector<at::Tensor> between;  // between[k]: what block k left (allocated in the capture)
  ExitOutputs out;

  ExitPieces(std::shared_ptr<const EarlyExitModel> m, const at::Tensor& example) : model(std::move(m)) {
    input = example.clone();
    between.resize(static_cast<std::size_t>(model->blocks()));
    out.logits = at::zeros({example.size(0), model->head_w[0].size(0)}, example.options());
    out.depth = at::zeros({1}, example.options());
  }
  at::Tensor run(std::size_t k) {
    between[k] = model->block(k, k == 0 ? input : between[k - 1]);
    at::Tensor logits = model->head(k, between[k]);
    out.logits.copy_(logits);
    out.depth.fill_(static_cast<double>(k + 1));
    return EarlyExitModel::confidence(logits);
  }
  std::vector<ConditionalGraph::Piece> pieces() {
    std::vector<ConditionalGraph::Piece> all;
    for (std::int64_t k = 0; k < model->blocks(); ++k) all.push_back([this, k] { return run(static_cast<std::size_t>(k)); });
    return all;
  }
  void warm_up() {
    for (std::int64_t k = 0; k < model->blocks(); ++k) run(static_cast<std::size_t>(k));
  }
};

#ifdef GRAPHBENCH_WITH_CUDA
// The step broken at each exit: a graph per piece, the host deciding between them.
class SplitExitRunner final : public VariantRunner {
 public:
  SplitExitRunner(std::shared_ptr<const EarlyExitModel> model, at::Tensor input, double threshold)
      : pieces_(std::move(model), input), case_input_(std::move(input)), threshold_(threshold) {
    pieces_.warm_up();
    const c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    for (std::int64_t k = 0; k < pieces_.model->blocks(); ++k) {
      auto g = std::make_unique<at::cuda::CUDAGraph>();
      g->capture_begin(graphs_.empty() ? at::cuda::MempoolId_t{0, 0} : graphs_.front()->pool(),
                       cudaStreamCaptureModeThreadLocal);
      confidence_.push_back(pieces_.run(static_cast<std::size_t>(k)));
      g->capture_end();
      graphs_.push_back(std::move(g));
    }
  }
  void step() override {
    pieces_.input.copy_(case_input_);
    for (std::size_t k = 0; k < graphs_.size(); ++k) {
      graphs_[k]->replay();
      ++replays_;
      if (k + 1 < graphs_.size() && confidence_[k].item<float>() > threshold_) break;
    }
  }
  std::vector<at::Tensor> observe() override { return pieces_.out.observe(); }
  std::optional<std::int64_t> graphs_per_step() const override {
    return static_cast<std::int64_t>(graphs_.size());  // at most: the exit decides how many replay
  }
  std::map<std::string, std::int64_t> counters() const override { return {{"replays", replays_}}; }

 private:
  ExitPieces pieces_;
  at::Tensor case_input_;
  double threshold_;
  std::vector<std::unique_ptr<at::cuda::CUDAGraph>> graphs_;
  std::vector<at::Tensor> confidence_;
  std::int64_t replays_ = 0;
};
#endif

// One graph, the exits decided on the device by IF nodes.
class ConditionalExitRunner final : public bench::ConditionalGraphRunner {
 public:
  ConditionalExitRunner(std::shared_ptr<const EarlyExitModel> model, const at::Tensor& input, double threshold,
                        bool fed)
      : pieces_(std::move(model), input) {
    pieces_.warm_up();
    graph_ = ConditionalGraph::exit_chain(pieces_.pieces(), threshold);
    if (fed) feed_ = {{pieces_.input, input}};
  }
  std::vector<at::Tensor> observe() override { return pieces_.out.observe(); }

 private:
  ExitPieces pieces_;
};

class EarlyExitCase final : public CaseInstance {
 public:
  EarlyExitCase(const CaseSpec& spec, const CaseContext& context) : threshold_(bench::param_number(spec, "threshold")) {
    const auto options = at::TensorOptions().dtype(at::kFloat).device(context.device);
    const std::int64_t batch = bench::param_int(spec, "batch");
    const std::int64_t width = bench::param_int(spec, "width");
    const std::int64_t classes = bench::param_int(spec, "classes");
    const std::int64_t blocks = bench::param_int(spec, "blocks");
    model_ = std::make_shared<const EarlyExitModel>(width, classes, blocks, options);
    input_ = at::randn({batch, width}, options);
    const double b = static_cast<double>(batch), w = static_cast<double>(width), c = static_cast<double>(classes);
    cost_.flops = static_cast<double>(blocks) * 2.0 * b * (w * w + w * c);  // every block run
    cost_.bytes = static_cast<double>(blocks) * 4.0 * (w * w + c * w + 2.0 * b * w);
    // Which outcome this case exercises, from one eager step: every record says it.
    EagerExitRunner probe(model_, input_, threshold_);
    probe.step();
    const auto depth = static_cast<std::int64_t>(probe.observe()[1].item<float>());
    outcome_ = depth == blocks ? fmt::format("the step runs all {} blocks (no head above {})", blocks, threshold_)
                               : fmt::format("the step stops at head {} of {} (confidence above {})", depth, blocks,
                                             threshold_);
  }

  std::vector<std::string> setup_notes() const override { return {outcome_}; }

  std::unique_ptr<VariantRunner> make_runner(const Variant& variant, bool) override {
    if (variant.source() == StepSource::kConditional) {
      return std::make_unique<ConditionalExitRunner>(model_, input_, threshold_, !variant.inputs_in_place());
    }
#ifdef GRAPHBENCH_WITH_CUDA
    if (variant.needs_cuda_graph()) return std::make_unique<SplitExitRunner>(model_, input_, threshold_);
#endif
    return std::make_unique<EagerExitRunner>(model_, input_, threshold_);
  }

  std::string skip_reason(const Variant& variant) const override {
    if (variant.source() == StepSource::kConditional) return conditional_nodes_unavailable();
    return "";
  }

  StepCost cost() const override { return cost_; }

 private:
  double threshold_;
  std::shared_ptr<const EarlyExitModel> model_;
  at::Tensor input_;
  StepCost cost_;
  std::string outcome_;
};

}  // namespace

GRAPHBENCH_REGISTER_CASE_WORKLOAD(EarlyExitCase, early_exit_descriptor, bench::Grad::kOff);

}  // namespace graphbench
