// Suite-file parsing (src/graphbench/spec): a good file parsed into structs, and bad files, each
// with its exact message, against an inline catalog of fake workload descriptors.
#include "support/catch.h"
#include "support/scratch_dir.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/suite/gradient_sync_fields.h"
#include "graphbench/core/suite/suite_parser.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

namespace {

using graphbench::InputError;
using graphbench::ParamDecl;
using graphbench::ParamType;
using graphbench::WorkloadDescriptor;
using graphbench::Variant;
using graphbench::variant_names;
using nlohmann::json;

const char* const kPath = "configs/x.json";

ParamDecl param(const std::string& name, ParamType type, json default_value, double min = 0.0,
                double max = 0.0, std::vector<std::string> choices = {}) {
  ParamDecl decl;
  decl.name = name;
  decl.type = type;
  decl.default_value = std::move(default_value);
  decl.help = name;
  decl.min = min;
  decl.max = max;
  decl.choices = std::move(choices);
  return decl;
}

WorkloadDescriptor workload(const std::string& name, std::vector<std::string> modes,
                            std::vector<std::string> kinds, std::vector<std::string> variants,
                            std::vector<ParamDecl> params) {
  WorkloadDescriptor descriptor;
  descriptor.name = name;
  descriptor.summary = name;
  descriptor.modes = std::move(modes);
  descriptor.kinds = std::move(kinds);
  for (const auto& v : variants) descriptor.variants.push_back(Variant::named(v));
  descriptor.dtypes = {"float32", "float16"};
  descriptor.params = std::move(params);
  return descriptor;
}

// Listed out of order on purpose: messages list known workloads sorted.
const std::vector<WorkloadDescriptor>& catalog() {
  static const std::vector<WorkloadDescriptor> workloads = {
      workload("mnist", {"train", "inference"}, {"benchmark", "training"},
               {"eager", "graph", "graph:replay", "reference", "reference+graph"},
               {param("batch_size", ParamType::kPositiveInt, 64),
                param("epochs", ParamType::kPositiveInt, 10),
                param("optimizer", ParamType::kString, "sgd", 0, 0, {"sgd"}),
                param("data_dir", ParamType::kString, "")}),
      workload("gelu", {"inference"}, {"benchmark"}, {"eager", "static", "graph", "jit", "jit+graph"},
               {param("shape", ParamType::kPositiveIntList, nullptr)}),
      workload("linear_dropout", {"train", "inference"}, {"benchmark"},
               {"eager", "static", "graph", "reference", "reference+graph"},
               {param("N", ParamType::kPositiveInt, 32), param("D_in", ParamType::kPositiveInt, 128),
                param("H", ParamType::kPositiveInt, 256), param("D_out", ParamType::kPositiveInt, 16),
                // [0, 1) in words; a descriptor has closed bounds only
                param("dropout", ParamType::kNumberList, json::array({0.2, 0.1}), 0.0, 0.99),
                param("lr", ParamType::kNumber, 0.1, 0.0, 10.0),
                param("bias", ParamType::kBool, true)}),
  };
  return workloads;
}

graphbench::SuiteSpec parse(const std::string& text) {
  return graphbench::parse_suite_spec(graphbench::parse_suite_json(text, kPath), kPath, catalog());
}

// The message of the InputError that parsing `text` throws.
std::string suite_error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A suite whose "cases" is `cases` (JSON text).
std::string with_cases(const std::string& cases) {
  return R"({"suite": "s", "cases": )" + cases + "}";
}

std::string message(const std::string& text) { return std::string(kPath) + ": " + text; }

const char* const kGoodSuite = R"({
  "schema_version": 1,
  "suite": "blog",
  "description": "The PyTorch 1.10 blog's tables",
  "defaults": {"warmup": 5, "dtype": "float32",
               "sampling": {"min_samples": 20, "max_time_s": 30}},
  "cases": [
    {"name": "gelu-small", "workload": "gelu", "shape": [1, 3, 224, 224],
     "variants": ["eager", "graph"], "description": "small GELU",
     "sampling": {"min_samples": 30, "target_rel_noise": 0.02},
     "published": {"variant": "graph", "speedup": 1.09, "eager_us": 70.9, "variant_us": 64.9,
                   "source": "blog", "device": "Tesla K80"}},
    {"name": "linear-dropout", "workload": "linear_dropout", "N": 640, "dropout": [0.5, 0],
     "lr": 1, "warmup": 0, "dtype": "float16",
     "published": [{"variant": "graph", "speedup": 2.36}, {"variant": "reference"}]},
    {"name": "mnist-train", "workload": "mnist", "kind": "training", "mode": "train",
     "epochs": 1}
  ]
})";

}  // namespace

TEST_CASE("spec: a good suite is parsed with defaults applied") {
  const auto suite = parse(kGoodSuite);
  CHECK(suite.path == kPath);
  CHECK(suite.name == "blog");
  CHECK(suite.description == "The PyTorch 1.10 blog's tables");
  REQUIRE(suite.cases.size() == 3);

  const auto& gelu = suite.cases[0];
  CHECK(gelu.name == "gelu-small");
  CHECK(gelu.workload == "gelu");
  CHECK(gelu.kind == "benchmark");
  CHECK(gelu.mode == "inference");
  CHECK(gelu.dtype == "float32");
  CHECK(variant_names(gelu.variants) == std::vector<std::string>{"eager", "graph"});
  CHECK(gelu.json_path == "/cases/0");
  CHECK(gelu.params == json::parse(R"({"shape": [1, 3, 224, 224]})"));
  // Sampling merged field by field: built-in, then defaults, then the case.
  CHECK(gelu.sampling.warmup_steps == 5);
  CHECK(gelu.sampling.min_samples == 30);
  CHECK(gelu.sampling.max_samples == 2000);
  CHECK(gelu.sampling.min_time_s == Approx(0.5));
  CHECK(gelu.sampling.max_time_s == Approx(30.0));
  CHECK(gelu.sampling.target_rel_noise == Approx(0.02));
  CHECK(gelu.sampling.min_sample_time_ms == Approx(1.0));
  REQUIRE(gelu.published.size() == 1);
  CHECK(gelu.published[0].variant == "graph");
  CHECK(gelu.published[0].speedup == Approx(1.09));
  CHECK(gelu.published[0].eager_us == Approx(70.9));
  CHECK(gelu.published[0].variant_us == Approx(64.9));
  CHECK(gelu.published[0].source == "blog");
  CHECK(gelu.published[0].device == "Tesla K80");

  const auto& linear = suite.cases[1];
  CHECK(linear.mode == "train");  // the workload's first mode
  CHECK(linear.dtype == "float16");
  CHECK(variant_names(linear.variants) ==
        std::vector<std::string>{"eager", "static", "graph", "reference", "reference+graph"});
  CHECK(linear.sampling.warmup_steps == 0);
  CHECK(linear.sampling.min_samples == 20);
  CHECK(linear.sampling.max_time_s == Approx(30.0));
  CHECK(linear.sampling.target_rel_noise == Approx(0.01));
  CHECK(linear.params ==
        json::parse(R"({"N": 640, "D_in": 128, "H": 256, "D_out": 16, "dropout": [0.5, 0.0],
                        "lr": 1.0, "bias": true})"));
  CHECK(linear.params["lr"].is_number_float());
  REQUIRE(linear.published.size() == 2);
  CHECK(linear.published[0].speedup == Approx(2.36));
  CHECK_FALSE(linear.published[1].speedup.has_value());
  CHECK_FALSE(linear.published[1].eager_us.has_value());

  const auto& mnist = suite.cases[2];
  CHECK(mnist.kind == "training");
  CHECK(mnist.mode == "train");
  CHECK(variant_names(mnist.variants) == std::vector<std::string>{"eager", "graph", "reference", "reference+graph"});
  CHECK(mnist.params ==
        json::parse(R"({"batch_size": 64, "epochs": 1, "optimizer": "sgd", "data_dir": ""})"));
  CHECK(mnist.published.empty());
}

TEST_CASE("spec: the example in docs/spec.md parses") {
  std::ifstream in(graphbench::testing::source_path("docs/spec.md"));
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto begin = doc.find("```json\n");
  REQUIRE(begin != std::string::npos);
  const auto end = doc.find("```\n", begin + 8);
  const auto suite = parse(doc.substr(begin + 8, end - begin - 8));
  REQUIRE(suite.cases.size() == 3);
  CHECK(suite.cases[0].sampling.warmup_steps == 20);
  CHECK(suite.cases[0].sampling.min_samples == 20);
  CHECK(suite.cases[0].sampling.max_time_s == Approx(30.0));
  CHECK(suite.cases[0].sampling.target_rel_noise == Approx(0.005));
  CHECK(suite.cases[0].published.size() == 2);
  CHECK(suite.cases[1].variants.size() == 5);
  CHECK(suite.cases[2].kind == "training");
}

TEST_CASE("spec: top-level errors") {
  CHECK(suite_error_of(R"([1, 2])") == message("expected a JSON object at the top level, got [1,2]"));
  CHECK(suite_error_of(R"({"suite": "s", "cases": [], "foo": 1})") ==
        message("/foo: unknown key (expected one of: schema_version, suite, description, "
                "defaults, cases)"));
  CHECK(suite_error_of(R"({"schema_version": 2, "suite": "s", "cases": []})") ==
        message("/schema_version: expected 1 (the suite-spec schema this graphbench reads), got 2"));
  CHECK(suite_error_of(R"({"cases": []})") == message("missing required key \"suite\""));
  CHECK(suite_error_of(R"({"suite": "", "cases": []})") ==
        message("/suite: expected a non-empty string, got \"\""));
  CHECK(suite_error_of(R"({"suite": "s", "description": 3, "cases": []})") ==
        message("/description: expected a string, got 3"));
  CHECK(suite_error_of(R"({"suite": "s", "cases": []})") ==
        message("/cases: expected a non-empty array of cases, got []"));
  CHECK(suite_error_of(R"({"suite": "s", "cases": {"name": "a"}})") ==
        message("/cases: expected a non-empty array of cases, got {\"name\":\"a\"}"));
  CHECK(suite_error_of(R"({"suite": "s"})") == message("missing required key \"cases\""));
}

TEST_CASE("spec: defaults errors") {
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"name": "x"}, "cases": []})") ==
        message("/defaults/name: unknown key (expected one of: kind, mode, dtype, variants, "
                "warmup, sampling, grad_dtype, grad_bucket_mb, grad_overlap, grad_chunk_mb, grad_transport, scope)"));
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"warmup": "ten"}, "cases": []})") ==
        message("/defaults/warmup: expected a non-negative integer, got \"ten\""));
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"sampling": {"min_sample": 3}}, "cases": []})") ==
        message("/defaults/sampling/min_sample: unknown key (expected one of: min_samples, "
                "max_samples, min_time_s, max_time_s, target_rel_noise, min_sample_time_ms)"));
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"kind": "bench"}, "cases": []})") ==
        message("/defaults/kind: expected one of \"benchmark\", \"training\", got \"bench\""));
  // A default the case's workload does not support is reported where it was written.
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"mode": "train"},
                     "cases": [{"name": "a", "workload": "gelu", "shape": [1]}]})") ==
        message("/defaults/mode: expected a mode that workload \"gelu\" declares (inference) for "
                "/cases/0, got \"train\""));
}

TEST_CASE("spec: case errors") {
  CHECK(suite_error_of(with_cases(R"(["gelu"])")) == message("/cases/0: expected an object, got \"gelu\""));
  CHECK(suite_error_of(with_cases(R"([{"workload": "gelu"}])")) ==
        message("/cases/0: missing required key \"name\""));
  CHECK(suite_error_of(with_cases(R"([{"name": 3, "workload": "gelu"}])")) ==
        message("/cases/0/name: expected a non-empty string, got 3"));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1]},
                                {"name": "b", "workload": "gelu", "shape": [1]},
                                {"name": "a", "workload": "gelu", "shape": [1]}])")) ==
        message("/cases/2/name: duplicate case name \"a\" (already the name of /cases/0)"));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelo"}])")) ==
        message("/cases/0/workload: unknown workload \"gelo\" (known: gelu, linear_dropout, "
                "mnist)"));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shapes": [1]}])")) ==
        message("/cases/0/shapes: unknown key (expected one of: name, workload, kind, mode, "
                "dtype, variants, warmup, sampling, published, description, sweep, scope, grad_dtype, "
                "grad_bucket_mb, grad_overlap, grad_chunk_mb, grad_transport, shape)"));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "a/b~": 1}])")) ==
        message("/cases/0/a~1b~0: unknown key (expected one of: name, workload, kind, mode, "
                "dtype, variants, warmup, sampling, published, description, sweep, scope, grad_dtype, "
                "grad_bucket_mb, grad_overlap, grad_chunk_mb, grad_transport, shape)"));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1],
                                 "kind": "training"}])")) ==
        message("/cases/0/kind: expected a kind that workload \"gelu\" declares (benchmark), got "
                "\"training\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1],
                                 "dtype": "bfloat16"}])")) ==
        message("/cases/0/dtype: expected a dtype that workload \"gelu\" declares (float32, "
                "float16), got \"bfloat16\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1],
                                 "warmup": -1}])")) ==
        message("/cases/0/warmup: expected a non-negative integer, got -1"));
}

TEST_CASE("spec: variant errors") {
  const auto variants = [](const std::string& list) {
    return suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "variants": )" +
                               list + "}]"));
  };
  CHECK(variants("[]") == message("/cases/0/variants: expected a non-empty array of variant "
                                  "names, got []"));
  CHECK(variants(R"(["eager", "grph"])") ==
        message("/cases/0/variants/1: expected one of \"eager\", \"static\", \"graph\", \"graph:replay\", "
                "\"jit\", \"jit+graph\", \"jit+graph:replay\", \"native\", \"native+graph\", "
                "\"native+graph:replay\", \"reference\", \"reference+graph\", \"reference+graph:replay\", "
                "\"conditional\", \"conditional:replay\", got \"grph\""));
  CHECK(variants(R"(["graph", "eager", "graph"])") ==
        message("/cases/0/variants/2: duplicate variant \"graph\" (also at /cases/0/variants/0)"));
  CHECK(variants(R"(["eager", "reference"])") ==
        message("/cases/0/variants/1: expected a variant that workload \"gelu\" declares (eager, "
                "static, graph, jit, jit+graph), got \"reference\""));
}

TEST_CASE("spec: workload parameter errors") {
  const auto gelu = [](const std::string& extra) {
    return suite_error_of(with_cases(R"([{"name": "g", "workload": "gelu")" + extra + "}]"));
  };
  const auto linear = [](const std::string& extra) {
    return suite_error_of(with_cases(R"([{"name": "g", "workload": "gelu", "shape": [1]},
                                   {"name": "l", "workload": "linear_dropout", )" + extra + "}]"));
  };
  CHECK(gelu("") ==
        message("/cases/0: missing required key \"shape\" (a parameter of workload \"gelu\")"));
  CHECK(gelu(R"(, "shape": [])") ==
        message("/cases/0/shape: expected a non-empty list of positive integers, got []"));
  CHECK(linear(R"("N": 32.0)") == message("/cases/1/N: expected a positive integer, got 32.0"));
  CHECK(linear(R"("N": 0)") == message("/cases/1/N: expected a positive integer, got 0"));
  CHECK(linear(R"("dropout": [0.2, 1.5])") ==
        message("/cases/1/dropout/1: expected a number in [0, 0.99], got 1.5"));
  CHECK(linear(R"("dropout": 0.2)") ==
        message("/cases/1/dropout: expected a list of numbers in [0, 0.99], got 0.2"));
  CHECK(linear(R"("lr": "fast")") ==
        message("/cases/1/lr: expected a number in [0, 10], got \"fast\""));
  CHECK(linear(R"("bias": 1)") == message("/cases/1/bias: expected true or false, got 1"));
  CHECK(suite_error_of(with_cases(R"([{"name": "m", "workload": "mnist", "optimizer": "adam"}])")) ==
        message("/cases/0/optimizer: expected one of \"sgd\", got \"adam\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "m", "workload": "mnist", "data_dir": 7}])")) ==
        message("/cases/0/data_dir: expected a string, got 7"));
}

TEST_CASE("spec: a built-in default the workload does not declare") {
  auto half = workload("half", {"inference"}, {"benchmark"}, {"eager"}, {});
  half.dtypes = {"float16"};
  const auto parse_half = [&](const std::string& text) {
    try {
      graphbench::parse_suite_spec(json::parse(text), kPath, {half});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(parse_half(with_cases(R"([{"name": "a", "workload": "half"}])")) ==
        message("/cases/0: workload \"half\" does not support the default dtype \"float32\" (it "
                "declares: float16); set \"dtype\""));
  CHECK(parse_half(with_cases(R"([{"name": "a", "workload": "half", "dtype": "float16"}])")) ==
        "(no error)");
}

TEST_CASE("spec: the example of the brief") {
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1, 3, 224, 224]},
                                {"name": "b", "workload": "gelu", "shape": [1, 3, -3]}])")) ==
        "configs/x.json: /cases/1/shape/2: expected a positive integer, got -3");
}

TEST_CASE("spec: sampling errors") {
  const auto sampling = [](const std::string& defaults, const std::string& own) {
    return suite_error_of(R"({"suite": "s", "defaults": {"sampling": )" + defaults +
                    R"(}, "cases": [{"name": "a", "workload": "gelu", "shape": [1],
                                     "sampling": )" + own + "}]}");
  };
  CHECK(sampling("{}", R"({"min_samples": 0})") ==
        message("/cases/0/sampling/min_samples: expected a positive integer, got 0"));
  CHECK(sampling("{}", R"({"max_samples": 3000000000})") ==
        message("/cases/0/sampling/max_samples: expected a positive integer no larger than "
                "2147483647, got 3000000000"));
  CHECK(sampling("{}", R"({"target_rel_noise": 1})") ==
        message("/cases/0/sampling/target_rel_noise: expected a number in (0, 1), got 1"));
  CHECK(sampling("{}", R"({"min_time_s": 0})") ==
        message("/cases/0/sampling/min_time_s: expected a positive number, got 0"));
  CHECK(sampling("{}", R"([])") == message("/cases/0/sampling: expected an object, got []"));
  // min > max is reported at the more specific of the two places.
  CHECK(sampling(R"({"min_samples": 50})", R"({"max_samples": 20})") ==
        message("/cases/0/sampling/max_samples: expected a positive integer no smaller than "
                "min_samples (50), got 20"));
  CHECK(sampling(R"({"max_samples": 20})", R"({"min_samples": 50})") ==
        message("/cases/0/sampling/min_samples: expected a positive integer no larger than "
                "max_samples (20), got 50"));
  CHECK(sampling("{}", R"({"min_samples": 5000})") ==
        message("/cases/0/sampling/min_samples: expected a positive integer no larger than "
                "max_samples (2000), got 5000"));
  CHECK(sampling(R"({"max_time_s": 0.25})", "{}") ==
        message("/defaults/sampling/max_time_s: expected a positive number no smaller than "
                "min_time_s (0.5), got 0.25"));
}

TEST_CASE("spec: how data-parallel steps average their gradients, from defaults and cases") {
  const auto suite = parse(R"({"suite": "s", "defaults": {"grad_dtype": "bfloat16", "grad_bucket_mb": 8},
    "cases": [{"name": "a", "workload": "gelu", "shape": [1]},
              {"name": "b", "workload": "gelu", "shape": [1], "grad_bucket_mb": 0.5, "grad_overlap": false,
               "grad_dtype": "float32"}]})");
  const graphbench::GradientSyncSpec& a = suite.cases[0].gradient_sync;
  CHECK(a.dtype == "bfloat16");
  CHECK(a.bucket_mb == 8.0);
  CHECK(a.overlap);
  CHECK(graphbench::bucket_cap_bytes(a) == std::size_t{8} << 20);
  const graphbench::GradientSyncSpec& b = suite.cases[1].gradient_sync;
  CHECK(b.dtype == "float32");
  CHECK(b.bucket_mb == 0.5);
  CHECK_FALSE(b.overlap);
  CHECK(graphbench::bucket_cap_bytes(b) == std::size_t{1} << 19);
  // DistributedDataParallel's defaults where nothing is written.
  const auto plain = parse(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1]}])"));
  CHECK(plain.cases[0].gradient_sync.dtype == "float32");
  CHECK(graphbench::bucket_cap_bytes(plain.cases[0].gradient_sync) == std::size_t{25} << 20);
  CHECK(plain.cases[0].gradient_sync.overlap);
  CHECK(graphbench::chunk_cap_bytes(plain.cases[0].gradient_sync) == 0);  // no chunks unless asked for
}

TEST_CASE("spec: gradient chunks, from defaults and cases, only while the overlap is on") {
  const auto suite = parse(R"({"suite": "s", "defaults": {"grad_chunk_mb": 8},
    "cases": [{"name": "a", "workload": "gelu", "shape": [1]},
              {"name": "b", "workload": "gelu", "shape": [1], "grad_chunk_mb": 0.5},
              {"name": "c", "workload": "gelu", "shape": [1], "grad_chunk_mb": 0},
              {"name": "d", "workload": "gelu", "shape": [1], "grad_overlap": false}]})");
  CHECK(suite.cases[0].gradient_sync.chunk_mb == 8.0);
  CHECK(graphbench::chunk_cap_bytes(suite.cases[0].gradient_sync) == std::size_t{8} << 20);
  CHECK(graphbench::chunk_cap_bytes(suite.cases[1].gradient_sync) == std::size_t{1} << 19);
  CHECK(graphbench::chunk_cap_bytes(suite.cases[2].gradient_sync) == 0);
  // After backward every gradient is there at once: chunks would hide nothing.
  CHECK(suite.cases[3].gradient_sync.chunk_mb == 8.0);
  CHECK(graphbench::chunk_cap_bytes(suite.cases[3].gradient_sync) == 0);
}

TEST_CASE("spec: \"grad_sm_carveout\" was removed, and a suite that still has it is told why") {
  const std::string why =
      "removed: leaving multiprocessors to the all-reduce (the SM carveout of the backward pass's products) "
      "measured no gain on two H200s (docs/distributed.md, \"The levers, measured on two H200s\"); delete this key";
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"grad_sm_carveout": 16},
                     "cases": [{"name": "a", "workload": "gelu", "shape": [1]}]})") ==
        message("/defaults/grad_sm_carveout: " + why));
  // Whatever its value, 0 included: the key is gone, not its default.
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1]},
                                {"name": "b", "workload": "gelu", "shape": [1], "grad_sm_carveout": 0}])")) ==
        message("/cases/1/grad_sm_carveout: " + why));
}

TEST_CASE("spec: the gradient transport, from defaults and cases, collective unless asked") {
  const auto suite = parse(R"({"suite": "s", "defaults": {"grad_transport": "copy-engine"},
    "cases": [{"name": "a", "workload": "gelu", "shape": [1]},
              {"name": "b", "workload": "gelu", "shape": [1], "grad_transport": "collective"},
              {"name": "c", "workload": "gelu", "shape": [1], "grad_transport": "auto"}]})");
  CHECK(suite.cases[0].gradient_sync.transport == "copy-engine");
  CHECK(suite.cases[1].gradient_sync.transport == "collective");
  CHECK(suite.cases[2].gradient_sync.transport == "auto");
  const auto plain = parse(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1]}])"));
  CHECK(plain.cases[0].gradient_sync.transport == "collective");
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_transport": "nvlink"}])")) ==
        message("/cases/0/grad_transport: expected one of \"collective\", \"copy-engine\", \"symmetric-memory\", \"auto\", got \"nvlink\""));
}

TEST_CASE("spec: gradient averaging errors name the field and what it takes") {
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_dtype": "float16"}])")) ==
        message("/cases/0/grad_dtype: expected one of \"float32\", \"bfloat16\", got \"float16\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_bucket_mb": 0}])")) ==
        message("/cases/0/grad_bucket_mb: expected a bucket cap in MiB, above 0 and at most 1048576 (e.g. 25), got 0"));
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"grad_bucket_mb": "25"},
                     "cases": [{"name": "a", "workload": "gelu", "shape": [1]}]})") ==
        message("/defaults/grad_bucket_mb: expected a bucket cap in MiB, above 0 and at most 1048576 (e.g. 25), got "
                "\"25\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_overlap": "yes"}])")) ==
        message("/cases/0/grad_overlap: expected true or false, got \"yes\""));
  const std::string chunk_expected =
      "expected a gradient chunk cap in MiB, 0 (no chunks) or above 0 and at most 1048576 (e.g. 8), got ";
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_chunk_mb": -1}])")) ==
        message("/cases/0/grad_chunk_mb: " + chunk_expected + "-1"));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_chunk_mb": 2e6}])")) ==
        message("/cases/0/grad_chunk_mb: " + chunk_expected + "2000000.0"));
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"grad_chunk_mb": "8"},
                     "cases": [{"name": "a", "workload": "gelu", "shape": [1]}]})") ==
        message("/defaults/grad_chunk_mb: " + chunk_expected + "\"8\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1], "grad_chunk_mb": true}])")) ==
        message("/cases/0/grad_chunk_mb: " + chunk_expected + "true"));
}

TEST_CASE("spec: published errors") {
  const auto published = [](const std::string& value) {
    return suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu", "shape": [1],
                                    "variants": ["eager", "graph"], "published": )" +
                               value + "}]"));
  };
  // Any variant the workload declares: the command line may change the case's variants.
  CHECK(published(R"([{"variant": "graph"}, {"variant": "jit"}])") == "(no error)");
  CHECK(published(R"([{"variant": "graph"}, {"variant": "reference"}])") ==
        message("/cases/0/published/1/variant: expected a variant that workload \"gelu\" declares "
                "(eager, static, graph, jit, jit+graph), got \"reference\""));
  CHECK(published(R"({"variant": "graph", "speedup": -1})") ==
        message("/cases/0/published/speedup: expected a positive number, got -1"));
  CHECK(published(R"({"speedup": 1.1})") ==
        message("/cases/0/published: missing required key \"variant\""));
  CHECK(published(R"({"variant": "graph", "url": "x"})") ==
        message("/cases/0/published/url: unknown key (expected one of: variant, speedup, "
                "eager_us, variant_us, source, device)"));
  CHECK(published("3") ==
        message("/cases/0/published: expected an object or an array of objects, got 3"));
}

TEST_CASE("spec: long values are cut in messages") {
  CHECK(suite_error_of(with_cases(R"([{"name": "a", "workload": "gelu",
                                 "shape": "0123456789012345678901234567890123456789012345678901234567890123456789"}])")) ==
        message("/cases/0/shape: expected a non-empty list of positive integers, got "
                "\"01234567890123456789012345678901234567890123456789012345..."));
}

namespace {

// A directory of its own under the system's temporary directory, removed afterwards.
std::string load_error(const std::string& path) {
  try {
    graphbench::load_suite_spec(path, catalog());
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("spec: files") {
  const graphbench::testing::ScratchDir dir("graphbench-spec-test");

  SECTION("a good file") {
    const auto path = dir.write("good.json", kGoodSuite);
    const auto suite = graphbench::load_suite_spec(path, catalog());
    CHECK(suite.path == path);
    CHECK(suite.cases.size() == 3);
  }
  SECTION("a missing file") {
    const auto path = (dir.path() / "missing.json").string();
    CHECK(load_error(path) == path + ": cannot open suite file: No such file or directory");
  }
  SECTION("a directory") {
    CHECK(load_error(dir.path().string()) ==
          dir.path().string() + ": cannot open suite file: Is a directory");
  }
  SECTION("invalid JSON: a missing colon") {
    const auto path = dir.write("bad.json", "{\n  \"suite\": \"s\",\n  \"cases\" []\n}\n");
    CHECK(load_error(path) ==
          path + ": invalid JSON at line 3, column 11: syntax error while parsing object "
                 "separator - unexpected '['; expected ':'");
  }
  SECTION("invalid JSON: a trailing comma") {
    const auto path = dir.write("comma.json", "{\n  \"suite\": \"s\",\n}\n");
    CHECK(load_error(path) ==
          path + ": invalid JSON at line 3, column 1: syntax error while parsing object key - "
                 "unexpected '}'; expected string literal");
  }
  SECTION("invalid JSON: an empty file") {
    const auto path = dir.write("empty.json", "");
    CHECK(load_error(path) ==
          path + ": invalid JSON at line 1, column 1: syntax error while parsing value - "
                 "unexpected end of input; expected '[', '{', or a literal");
  }
  SECTION("a schema error names the file") {
    const auto path = dir.write("schema.json", R"({"suite": "s", "cases": []})");
    CHECK(load_error(path) == path + ": /cases: expected a non-empty array of cases, got []");
  }
}

TEST_CASE("spec: the suite name is one safe path component") {
  // It becomes graphbench-out/<suite>: "../../x" would write outside the output root.
  for (const std::string& bad : std::vector<std::string>{"../../x", "a/b", "..", ".hidden", "-rf", "a b", "x\ny", std::string(101, 'a')}) {
    INFO(bad);
    CHECK_THAT(suite_error_of(R"({"suite": )" + json(bad).dump() + R"(, "cases": [{"name": "a", "workload": "gelu", "shape": [1]}]})"),
               Catch::Contains(message("/suite: expected a suite name of 1 to 100 letters, digits, '.', '_' or '-', not "
                                       "starting with '.' or '-', got ")));
  }
  for (const std::string& good : std::vector<std::string>{"blog", "ci-2.h200", "A_b", std::string(100, 'a')}) {
    INFO(good);
    CHECK(parse(R"({"suite": )" + json(good).dump() + R"(, "cases": [{"name": "a", "workload": "gelu", "shape": [1]}]})").name ==
          good);
  }
}

TEST_CASE("spec: a case name is one printable line, commas allowed") {
  CHECK(suite_error_of(with_cases(R"([{"name": "a\nb", "workload": "gelu", "shape": [1]}])")) ==
        message("/cases/0/name: expected a case name without control characters (newlines, tabs, escapes), got "
                "\"a\\nb\""));
  CHECK(suite_error_of(with_cases(R"([{"name": "a\u001b[2J", "workload": "gelu", "shape": [1]}])")) ==
        message("/cases/0/name: expected a case name without control characters (newlines, tabs, escapes), got "
                "\"a\\u001b[2J\""));
  CHECK(parse(with_cases(R"([{"name": "gelu, small | x", "workload": "gelu", "shape": [1]}])")).cases[0].name ==
        "gelu, small | x");
}

TEST_CASE("spec: a list parameter of fixed length is checked when the suite is read") {
  ParamDecl dropout = param("dropout", ParamType::kNumberList, json::array({0.2, 0.1}), 0.0, 0.99);
  dropout.length = 2;
  ParamDecl shape = param("shape", ParamType::kPositiveIntList, nullptr);
  shape.length = 3;
  const std::vector<WorkloadDescriptor> workloads = {
      workload("w", {"train"}, {"benchmark"}, {"eager"}, {dropout, shape})};
  const auto error_with = [&](const std::string& params) {
    try {
      graphbench::parse_suite_spec(
          graphbench::parse_suite_json(with_cases(R"([{"name": "a", "workload": "w", )" + params + "}]"), kPath), kPath,
          workloads);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_with(R"("shape": [1, 2, 3], "dropout": [0.1])") ==
        message("/cases/0/dropout: expected a list of exactly 2 numbers in [0, 0.99] (it has 1), got [0.1]"));
  CHECK(error_with(R"("shape": [1, 2])") ==
        message("/cases/0/shape: expected a list of exactly 3 positive integers (it has 2), got [1,2]"));
  CHECK(error_with(R"("shape": 4)") == message("/cases/0/shape: expected a non-empty list of exactly 3 positive integers, got 4"));
  CHECK(error_with(R"("shape": [1, 2, 3], "dropout": [0.1, 0.2])") == "(no error)");
}

TEST_CASE("spec: a key written twice is bad input naming the key") {
  CHECK(suite_error_of(R"({"suite": "s", "cases": [{"name": "a", "workload": "gelu", "shape": [1], "shape": [2]}]})") ==
        message("/cases/0/shape: duplicate key \"shape\" (an object may hold each key once)"));
}

TEST_CASE("spec: a training case feeds its inputs, so the replay-only variants are for benchmarks") {
  // Explicitly asked for: an error naming the variant.
  CHECK(suite_error_of(with_cases(R"([{"name": "t", "workload": "mnist", "kind": "training",
      "variants": ["eager", "graph:replay"]}])")) ==
        message("/cases/0/variants/1: expected a variant that feeds its inputs (a training run hands every "
                "step a new batch; \"graph:replay\" replays on inputs already in place), got \"graph:replay\""));
  // From defaults, the message names the case it was applied to.
  CHECK(suite_error_of(R"({"suite": "s", "defaults": {"variants": ["graph:replay"]},
      "cases": [{"name": "t", "workload": "mnist", "kind": "training"}]})") ==
        message("/defaults/variants/0: expected a variant that feeds its inputs (a training run hands every step "
                "a new batch; \"graph:replay\" replays on inputs already in place) for /cases/0, got \"graph:replay\""));
  // Left to the workload's declaration: a training case gets the feeding variants only, a
  // benchmark case of the same workload gets both methods.
  const auto suite = parse(with_cases(R"([{"name": "t", "workload": "mnist", "kind": "training"},
      {"name": "b", "workload": "mnist", "kind": "benchmark"}])"));
  CHECK(variant_names(suite.cases[0].variants) ==
        std::vector<std::string>{"eager", "graph", "reference", "reference+graph"});
  CHECK(variant_names(suite.cases[1].variants) ==
        std::vector<std::string>{"eager", "graph", "graph:replay", "reference", "reference+graph"});
}

TEST_CASE("spec: a shape too large to ever allocate is bad input when the suite is read") {
  CHECK(suite_error_of(with_cases(R"([{"name": "g", "workload": "gelu", "shape": [4294967296, 4294967296]}])")) ==
        message("/cases/0/shape: expected positive integers whose product (the element count) is at most 2^60, got "
                "[4294967296,4294967296]"));
  CHECK(suite_error_of(with_cases(R"([{"name": "g", "workload": "gelu", "shape": [9223372036854775807]}])")) ==
        message("/cases/0/shape: expected positive integers whose product (the element count) is at most 2^60, got "
                "[9223372036854775807]"));
  CHECK(parse(with_cases(R"([{"name": "g", "workload": "gelu", "shape": [1073741824, 1073741824]}])")).cases.size() == 1);
}
