// MNIST's data paths on a tiny MNIST-format data set the tests write themselves: the device
// gather gives the batches the host path gives (in order and shuffled with a seed), whole runs
// print the same losses either way, the run reports where its time went, and progress lines
// appear only on a terminal. The [cuda] tests capture the gather with its device step counter.
#include "support/catch.h"
#include "support/cuda_skip.h"
#include "support/scratch_dir.h"

#include "mnist/batch_order.h"
#include "mnist/device_batches.h"
#include "mnist/mnist_data.h"
#include "mnist/mnist_training.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/exec/engine.h"
#include "graphbench/engine/exec/executor.h"
#include "graphbench/core/stats/random.h"

#include <filesystem>
#include <fstream>
#include <cmath>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace graphbench;
using bench::BatchOrder;

constexpr std::int64_t kTrain = 150;  // batch 16: 9 full batches and a short one of 6
constexpr std::int64_t kTest = 45;    // test batch 20: 2 full batches and a short one of 5

void write_idx(const fs::path& path, const std::vector<std::uint32_t>& dims, const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> bytes = {0, 0, 0x08, static_cast<std::uint8_t>(dims.size())};
  for (std::uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<std::uint8_t>(d >> shift));
  }
  bytes.insert(bytes.end(), data.begin(), data.end());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

// A directory holding a tiny MNIST-format data set (raw IDX files), removed afterwards. The
// images are noise with a bright square whose place depends on the label, so it can be learnt.
class TinyMnist {
 public:
  TinyMnist() : scratch_("graphbench-mnist-test"), path_(scratch_.path()) {
    write_split("train", kTrain, 1);
    write_split("t10k", kTest, 2);
  }
  std::string dir() const { return path_.string(); }

 private:
  void write_split(const std::string& prefix, std::uint32_t count, std::uint64_t seed) {
    stats::SplitMix64 rng(seed);
    std::vector<std::uint8_t> images(std::size_t{count} * 28 * 28);
    std::vector<std::uint8_t> labels(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      labels[i] = static_cast<std::uint8_t>(rng.below(10));
      for (std::size_t p = 0; p < 28 * 28; ++p) images[i * 784 + p] = static_cast<std::uint8_t>(rng.below(64));
      const std::size_t corner = 2 + 2 * labels[i];
      for (std::size_t r = corner; r < corner + 5; ++r) {
        for (std::size_t c = corner; c < corner + 5; ++c) images[i * 784 + r * 28 + c] = 255;
      }
    }
    write_idx(path_ / (prefix + "-images-idx3-ubyte"), {count, 28, 28}, images);
    write_idx(path_ / (prefix + "-labels-idx1-ubyte"), {count}, labels);
  }

  testing::ScratchDir scratch_;
  fs::path path_;
};

// A program that gathers one batch and advances the counter; outputs images, labels, indices.
std::shared_ptr<const Program> gather_program(const bench::DeviceBatches& batches, const bench::GatherShape& shape) {
  Builder b("gather_test");
  const auto batch = batches.gather(b, shape);
  batches.advance(b, batch.step);
  b.output("images", batch.images);
  b.output("labels", batch.labels);
  b.output("indices", batch.indices);
  return b.build();
}

Policy state_policy() {
  Policy p = Policy::inference();
  p.static_roles = {Role::kInput, Role::kParam, Role::kState};
  return p;
}

// Runs every batch of `epochs` epochs through a gather program on `kind` and checks each against
// what the host path takes: split[order[start, start + rows)].
void check_gathered_batches(ExecutorKind kind, at::Device device, BatchOrder order) {
  TinyMnist data;
  const mnist::Split host = mnist::load_split(data.dir(), /*train=*/true, at::kCPU);
  const mnist::Split on_device = mnist::load_split(data.dir(), /*train=*/true, device);
  // The device normalises as the host does: the same values, bit for bit.
  REQUIRE(at::equal(on_device.images.cpu(), host.images));
  bench::DeviceBatches batches("train", on_device.images, on_device.labels);
  ModelStore store;
  batches.install(store);
  Engine engine(store);
  auto executor = make_executor(kind, engine, state_policy());
  const std::int64_t batch = 16;
  const auto full = gather_program(batches, {batch, batch, 0});
  const auto last = gather_program(batches, {kTrain % batch, batch, 0});
  executor->prepare(full, {});  // binding and warm-up leave the counter where it was
  executor->prepare(last, {});
  for (int epoch = 1; epoch <= 2; ++epoch) {
    const at::Tensor epoch_order = bench::epoch_order(kTrain, order, /*seed=*/7, epoch);
    batches.begin_epoch(order == BatchOrder::kShuffled ? epoch_order : at::Tensor());
    for (std::int64_t step = 0; step * batch < kTrain; ++step) {
      const std::int64_t rows = std::min(batch, kTrain - step * batch);
      const auto outputs = executor->run(rows == batch ? full : last, {});
      const at::Tensor indices = epoch_order.narrow(0, step * batch, rows);
      INFO("epoch " << epoch << ", step " << step);
      REQUIRE(at::equal(outputs[2].cpu(), indices));
      REQUIRE(at::equal(outputs[0].cpu(), host.images.index_select(0, indices)));
      REQUIRE(at::equal(outputs[1].cpu(), host.labels.index_select(0, indices)));
      if (order == BatchOrder::kSequential) REQUIRE(at::equal(outputs[0].cpu(), host.images.narrow(0, step * batch, rows)));
    }
    CHECK(batches.step().item<std::int64_t>() == (kTrain + batch - 1) / batch);
  }
  CHECK(engine.counters().feed_copies == 0);
}

mnist::TrainingConfig tiny_config(const TinyMnist& data, std::ostream& out) {
  mnist::TrainingConfig c;
  c.data_dir = data.dir();
  c.device = at::kCPU;
  c.epochs = 2;
  c.batch = 16;
  c.test_batch = 20;
  c.lr = 0.05;
  c.log_interval = 2;
  c.seed = 3;
  c.out = &out;
  return c;
}

// The run's own lines without the closing one (its times differ from run to run).
std::string tutorial_lines(const std::string& printed) {
  std::istringstream in(printed);
  std::string line;
  std::string out;
  while (std::getline(in, line)) {
    if (line.rfind("Train Epoch", 0) == 0 || line.rfind("Test set", 0) == 0) out += line + "\n";
  }
  return out;
}

struct Run {
  TrainingSummary summary;
  std::string printed;
};

Run train_run(mnist::TrainingConfig config) {
  std::ostringstream out;
  config.out = &out;
  at::manual_seed(1);  // as the training case does before every variant
  Run run;
  run.summary = mnist::train(config);
  run.printed = out.str();
  return run;
}

}  // namespace

TEST_CASE("epoch_order: sequential, or a permutation per epoch that the seed fixes") {
  CHECK(at::equal(bench::epoch_order(5, BatchOrder::kSequential, 9, 3), at::arange(5, at::kLong)));
  const at::Tensor a = bench::epoch_order(1000, BatchOrder::kShuffled, 9, 1);
  CHECK(at::equal(std::get<0>(a.sort()), at::arange(1000, at::kLong)));  // a permutation
  CHECK_FALSE(at::equal(a, at::arange(1000, at::kLong)));
  CHECK(at::equal(a, bench::epoch_order(1000, BatchOrder::kShuffled, 9, 1)));   // reproducible
  CHECK_FALSE(at::equal(a, bench::epoch_order(1000, BatchOrder::kShuffled, 9, 2)));   // another epoch
  CHECK_FALSE(at::equal(a, bench::epoch_order(1000, BatchOrder::kShuffled, 10, 1)));  // another seed
  CHECK(bench::epoch_order(1, BatchOrder::kShuffled, 9, 1).item<std::int64_t>() == 0);
}

TEST_CASE("SplitsLoader: the tensors first, the data once finished, as load_split reads it") {
  TinyMnist data;
  mnist::SplitsLoader loader(data.dir(), at::kCPU);
  const mnist::Splits splits = loader.splits();  // handles: finish() fills these very tensors
  REQUIRE(splits.train.size() == kTrain);
  REQUIRE(splits.test.size() == kTest);
  const void* images = splits.train.images.data_ptr();
  loader.finish();
  CHECK(splits.train.images.data_ptr() == images);
  CHECK(loader.decode_seconds() > 0);
  for (const bool train : {true, false}) {
    const mnist::Split expected = mnist::load_split(data.dir(), train, at::kCPU);
    const mnist::Split& loaded = train ? splits.train : splits.test;
    CHECK(at::equal(loaded.images, expected.images));
    CHECK(at::equal(loaded.labels, expected.labels));
    CHECK(loaded.labels.scalar_type() == at::kLong);
  }
  // Mean 0.1307 and std 0.3081 on [0, 1]: a black pixel is -0.4242, a white one 2.8215.
  CHECK(splits.train.images.min().item<double>() == Approx(-0.1307 / 0.3081));
  CHECK(splits.train.images.max().item<double>() == Approx((1 - 0.1307) / 0.3081));
}

TEST_CASE("SplitsLoader: bad headers fail at once, bad data when finishing, naming the file") {
  TinyMnist data;
  const fs::path images = fs::path(data.dir()) / "t10k-images-idx3-ubyte";
  const fs::path labels = fs::path(data.dir()) / "t10k-labels-idx1-ubyte";
  SECTION("images of another size") {
    write_idx(images, {3, 27, 27}, std::vector<std::uint8_t>(3 * 27 * 27));
    CHECK_THROWS_AS(mnist::SplitsLoader(data.dir(), at::kCPU), InputError);
    CHECK_THROWS_WITH(mnist::SplitsLoader(data.dir(), at::kCPU),
                      images.string() + ": images are 27x27, the MNIST network needs 28x28");
  }
  SECTION("a label outside 0..9") {
    write_idx(labels, {kTest}, std::vector<std::uint8_t>(kTest, 10));
    mnist::SplitsLoader loader(data.dir(), at::kCPU);
    CHECK_THROWS_WITH(loader.finish(), labels.string() + ": label 10 at index 0 is outside 0..9");
  }
  SECTION("a missing file: found out before any decoding") {
    fs::remove(labels);
    CHECK_THROWS_WITH(mnist::SplitsLoader(data.dir(), at::kCPU), Catch::Contains("MNIST test labels not found"));
  }
}

TEST_CASE("device batches: the gather gives the host path's batches, in order") {
  check_gathered_batches(ExecutorKind::kEager, at::kCPU, BatchOrder::kSequential);
  check_gathered_batches(ExecutorKind::kStatic, at::kCPU, BatchOrder::kSequential);
}

TEST_CASE("device batches: the gather gives the host path's batches, shuffled with a seed") {
  check_gathered_batches(ExecutorKind::kEager, at::kCPU, BatchOrder::kShuffled);
  check_gathered_batches(ExecutorKind::kStatic, at::kCPU, BatchOrder::kShuffled);
}

TEST_CASE("device batches: a bad shape is refused, a counter past the split's end wraps to its start") {
  const at::Tensor images = at::zeros({4, 1, 28, 28});
  CHECK_THROWS_WITH(bench::DeviceBatches("d", images, at::zeros({3}, at::kLong)),
                    Catch::Contains("sharing their first dim"));
  bench::DeviceBatches batches("d", images, at::zeros({4}, at::kLong));
  Builder b("bad");
  CHECK_THROWS_WITH(batches.gather(b, {0, 1, 0}), Catch::Contains("rows >= 1"));
  ModelStore store;
  batches.install(store);
  Engine engine(store);
  auto eager = make_executor(ExecutorKind::kEager, engine, state_policy());
  const auto program = gather_program(batches, {2, 2, 0});
  eager->run(program, {});
  eager->run(program, {});
  // Positions 4 and 5 of 4 samples: 0 and 1 (warm-up runs before a capture advance the counter too).
  const auto outputs = eager->run(program, {});
  CHECK(at::equal(outputs[2], at::arange(2, at::kLong)));
}

TEST_CASE("mnist training: the device way prints the losses of the host way") {
  TinyMnist data;
  std::ostringstream unused;
  mnist::TrainingConfig config = tiny_config(data, unused);
  for (const BatchOrder order : {BatchOrder::kSequential, BatchOrder::kShuffled}) {
    for (const bool short_batch : {false, true}) {
      config.order = order;
      config.train_last_short_batch = short_batch;
      INFO(bench::to_string(order) << (short_batch ? ", short batch trained" : ", short batch skipped"));
      config.data_on_host = true;
      const Run host = train_run(config);
      config.data_on_host = false;
      const Run device = train_run(config);
      CHECK(host.summary.data_placement == "host");
      CHECK(device.summary.data_placement == "device");
      REQUIRE(host.summary.epochs.size() == 2);
      REQUIRE(device.summary.epochs.size() == 2);
      CHECK(tutorial_lines(device.printed) == tutorial_lines(host.printed));
      for (std::size_t e = 0; e < 2; ++e) {
        const auto& h = host.summary.epochs[e];
        const auto& d = device.summary.epochs[e];
        CHECK(d.logged_loss == h.logged_loss);  // exactly: the same batches, the same steps
        CHECK(d.logged_samples == h.logged_samples);
        CHECK(d.test_loss == h.test_loss);
        CHECK(d.test_accuracy == h.test_accuracy);
      }
      CHECK(device.summary.train_steps == host.summary.train_steps);
      CHECK(device.summary.skipped_batches == (short_batch ? 0 : 2));
    }
  }
  // The logged sample count is the tutorial's: batches so far times the batch, at the last
  // logged batch (batch 9 of 10 with the short one skipped: 9 x 16).
  config.order = BatchOrder::kSequential;
  config.train_last_short_batch = false;
  const Run run = train_run(config);
  CHECK_THAT(run.printed, Catch::Contains("Train Epoch: 1 [  144/  150] Loss: "));
  CHECK(run.summary.epochs[1].test_accuracy > 0.5);  // it learns (10 classes)
}

TEST_CASE("mnist training: the static executor on device data matches the host way") {
  TinyMnist data;
  std::ostringstream unused;
  mnist::TrainingConfig config = tiny_config(data, unused);
  config.data_on_host = true;
  const Run host = train_run(config);
  config.data_on_host = false;
  config.train_executor = ExecutorKind::kStatic;
  const Run device = train_run(config);
  for (std::size_t e = 0; e < 2; ++e) {
    CHECK(device.summary.epochs[e].logged_loss == Approx(host.summary.epochs[e].logged_loss).epsilon(1e-5));
    CHECK(device.summary.epochs[e].test_accuracy == host.summary.epochs[e].test_accuracy);
  }
}

TEST_CASE("mnist training: the record says where the time went") {
  TinyMnist data;
  std::ostringstream unused;
  for (const bool on_host : {false, true}) {
    mnist::TrainingConfig config = tiny_config(data, unused);
    config.data_on_host = on_host;
    config.order = BatchOrder::kShuffled;
    const Run run = train_run(config);
    const TrainingSummary& s = run.summary;
    CHECK(s.load_seconds > 0);
    CHECK(s.setup_seconds > 0);
    CHECK(s.capture_seconds >= 0);  // eager has nothing to capture
    CHECK(s.graph_capture_seconds == 0);
    CHECK(s.train_seconds > 0);
    CHECK(s.test_seconds > 0);
    CHECK(s.other_seconds >= 0);
    CHECK(s.decode_seconds > 0);
    CHECK(s.context_seconds == 0);  // a CPU run has no device context to create
    CHECK(s.first_calls_seconds >= 0);
    CHECK(s.first_calls_seconds <= s.total_seconds);
    CHECK(s.load_seconds + s.setup_seconds + s.capture_seconds + s.train_seconds + s.test_seconds + s.other_seconds ==
          Approx(s.total_seconds));
    CHECK(s.train_seconds == Approx(s.epochs[0].train_seconds + s.epochs[1].train_seconds));
    CHECK(s.batch_order == "shuffled");
    CHECK(s.train_executor == "eager");
    // Epochs of 9 steps, fewer than a timing block of 100: each epoch is one block, so the median
    // step is measured (it was 0, and the closing line said "median step 0 us").
    CHECK(s.steps_per_block == 9);
    CHECK(s.step_samples_us.size() == 2);
    CHECK(s.median_step_us > 0);
    const std::regex closing_line(R"(Total time: [0-9.]+ s \(load [0-9.]+ s, setup [0-9.]+ s, capture [0-9.]+ s, )"
                                  R"(training [0-9.]+ s, testing [0-9.]+ s, other [0-9.]+ s\); 18 steps, )");
    CHECK(std::regex_search(run.printed, closing_line));
  }
}

TEST_CASE("mnist training: a timing block is 100 steps, or one epoch where an epoch has fewer") {
  CHECK(mnist::timing_block_steps(937) == 100);
  CHECK(mnist::timing_block_steps(100) == 100);
  CHECK(mnist::timing_block_steps(9) == 9);
  CHECK(mnist::timing_block_steps(1) == 1);
  CHECK(mnist::timing_block_steps(0) == 1);
}

TEST_CASE("mnist training: the first calls are the warm-up before capture and the first block's time above the median") {
  TrainingSummary eager;
  eager.median_step_us = 1500;
  // The first block of 100 steps ran at 5000 us a step: 0.35 s above 100 x 1500 us.
  CHECK(mnist::first_calls_seconds(eager, {5000, 1500, 1490}, 100) == Approx(0.35));
  TrainingSummary graph;
  graph.median_step_us = 230;
  graph.capture_seconds = 0.5;
  graph.graph_capture_seconds = 0.004;
  // A first block at the median adds nothing; one faster than it takes nothing away.
  CHECK(mnist::first_calls_seconds(graph, {230, 231}, 100) == Approx(0.496));
  CHECK(mnist::first_calls_seconds(graph, {200, 231}, 100) == Approx(0.496));
  // Too few steps for a block: the warm-up alone.
  CHECK(mnist::first_calls_seconds(graph, {}, 100) == Approx(0.496));
  CHECK(mnist::first_calls_seconds(TrainingSummary{}, {}, 100) == 0.0);
}

TEST_CASE("mnist training: progress lines go to a terminal only") {
  TinyMnist data;
  std::ostringstream out;
  mnist::TrainingConfig config = tiny_config(data, out);
  SECTION("with a terminal: the live line, then the tutorial's lines on clean lines") {
    std::ostringstream terminal;
    config.progress = &terminal;
    config.progress_interval_s = 0.0;
    const Run run = train_run(config);
    CHECK_THAT(terminal.str(), Catch::Contains("\rTrain Epoch: 1 ["));
    CHECK_THAT(terminal.str(), Catch::Contains("| epoch 2 of 2, about "));
    const std::string shown = terminal.str();
    CHECK(shown.substr(shown.size() - 4) == "\r\033[K");  // cleared before the epoch's lines
    CHECK(run.printed.find('\r') == std::string::npos);
  }
  SECTION("without one: nothing but the tutorial's lines") {
    const Run run = train_run(config);
    CHECK(run.printed.find('\r') == std::string::npos);
    CHECK(run.printed.find("\033[") == std::string::npos);
    CHECK(run.printed.find("| epoch") == std::string::npos);
  }
}

TEST_CASE("device batches on the GPU: a captured step gathers the batch its device counter names", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  check_gathered_batches(ExecutorKind::kGraph, at::kCUDA, BatchOrder::kSequential);
  check_gathered_batches(ExecutorKind::kGraph, at::kCUDA, BatchOrder::kShuffled);
}

TEST_CASE("mnist training on the GPU: captured steps on device data learn as eager ones do", "[cuda]") {
  GRAPHBENCH_REQUIRE_CUDA();
  TinyMnist data;
  std::ostringstream unused;
  mnist::TrainingConfig config = tiny_config(data, unused);
  config.device = at::kCUDA;
  config.epochs = 3;
  config.data_on_host = true;
  const Run host = train_run(config);
  config.data_on_host = false;
  const Run eager = train_run(config);
  config.train_executor = ExecutorKind::kGraph;
  config.test_executor = ExecutorKind::kGraph;
  config.train_last_short_batch = true;
  const Run graph = train_run(config);
  // The host and the device way: the same batches; cuDNN may add in another order.
  for (std::size_t e = 0; e < 3; ++e) {
    CHECK(eager.summary.epochs[e].logged_loss == Approx(host.summary.epochs[e].logged_loss).epsilon(1e-3));
    CHECK(eager.summary.epochs[e].test_accuracy == Approx(host.summary.epochs[e].test_accuracy).margin(0.03));
  }
  CHECK(graph.printed.find("ran eagerly") == std::string::npos);  // captured, no fallback
  CHECK(graph.summary.capture_seconds > 0);
  // Four graphs (full and short batches, training and testing), each captured after its warm-up.
  CHECK(graph.summary.graph_capture_seconds > 0);
  CHECK(graph.summary.graph_capture_seconds < graph.summary.capture_seconds);
  CHECK(graph.printed.find("captured and instantiated the graphs") != std::string::npos);
  // The warm-up before capture paid the libraries' first calls.
  CHECK(graph.summary.first_calls_seconds >= graph.summary.capture_seconds - graph.summary.graph_capture_seconds);
  CHECK(graph.printed.find("the libraries' first calls took") != std::string::npos);
  CHECK(graph.summary.skipped_batches == 0);
  CHECK(graph.summary.epochs.back().test_accuracy > 0.5);
  CHECK(std::isfinite(graph.summary.epochs.back().logged_loss));
}
