// The one rule for whether two outputs agree (engine/runner/output_match.h), on given tensors shaped like
// a bfloat16 decoder's logits (16 x 32000 = 512000): a correct capture whose outputs are one or
// two rounding steps apart at about a thousand elements passes, whether or not eager repeated
// itself; a stale input, a missed cache update and pieces run in the wrong order fail. And the
// check of a chain of pieces against the whole model, which applies the same rule.
#include "support/catch.h"

#include "models/chain_check.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/engine/runner/output_match.h"
#include "graphbench/engine/runner/validation.h"

#include <ATen/ATen.h>

namespace {

using namespace graphbench;

constexpr std::int64_t kBatch = 16, kVocab = 32000, kWidth = 64, kCache = 8;
constexpr double kBf16Rtol = 5e-2, kBf16Atol = 1e-2;  // a bfloat16 model's default tolerances
constexpr double kTightRtol = 1e-5, kTightAtol = 1e-6;

struct Decoder {
  at::Tensor w;  // width x vocab: the output projection
  at::Tensor h;  // batch x width: this step's hidden state
  at::Tensor q, k, v;  // the step's query, the cache's keys and values (batch x cache x width)
};

Decoder make_decoder() {
  at::manual_seed(7);
  Decoder d;
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  d.w = at::randn({kWidth, kVocab}, f64) / 4.0;
  d.h = at::randn({kBatch, kWidth}, f64);
  d.q = at::randn({kBatch, 1, kWidth}, f64);
  d.k = at::randn({kBatch, kCache, kWidth}, f64);
  d.v = at::randn({kBatch, kCache, kWidth}, f64);
  return d;
}

// Logits in float64 (the exact result) of a hidden state.
at::Tensor logits64(const Decoder& d, const at::Tensor& h) { return at::matmul(h, d.w); }

// Attention of the step's query over the cache, then the projection.
at::Tensor attention_logits64(const Decoder& d, const at::Tensor& h, const at::Tensor& k, const at::Tensor& v) {
  const at::Tensor scores = at::matmul(d.q, k.transpose(1, 2)) / std::sqrt(static_cast<double>(kWidth));
  const at::Tensor out = at::matmul(at::softmax(scores, -1), v).squeeze(1);
  return logits64(d, h + out);
}

at::Tensor bf16(const at::Tensor& t) { return t.to(at::kBFloat16); }

// `out` with `count` elements moved by `steps` rounding steps: at each element's own magnitude, or
// (at_largest) at the output's largest magnitude, alternating in sign.
at::Tensor moved(const at::Tensor& out, std::int64_t count, double steps, bool at_largest) {
  at::Tensor flat = out.to(at::kDouble).flatten().clone();
  const double largest = flat.abs().max().item<double>();
  const std::int64_t stride = flat.numel() / count;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t at = i * stride + (i * 7919) % stride;
    const double value = flat[at].item<double>();
    const double step = rounding_step(at::kBFloat16, at_largest ? largest : std::abs(value));
    flat[at] = value + (i % 2 == 0 ? steps : -steps) * step;
  }
  return bf16(flat.view(out.sizes()));
}

// Logits that sum large terms: some come out near zero, where another order of the same float32
// sums (another kernel's) differs by more than rtol of the element itself.
struct SummedTwoWays {
  at::Tensor exact;      // float64
  at::Tensor eager;      // float32, one order
  at::Tensor reordered;  // float32, the width split in two halves, each summed, then added
  at::Tensor stale;      // float32, from a slightly wrong hidden state
};

SummedTwoWays summed_two_ways() {
  const Decoder d = make_decoder();
  const at::Tensor w = d.w * 64.0, h = d.h * 64.0;
  const std::int64_t half = kWidth / 2;
  const at::Tensor hf = h.to(at::kFloat), wf = w.to(at::kFloat);
  SummedTwoWays l;
  l.exact = at::matmul(h, w);
  l.eager = at::matmul(hf, wf);
  l.reordered = at::matmul(hf.slice(1, half), wf.slice(0, half)) + at::matmul(hf.slice(1, 0, half), wf.slice(0, 0, half));
  l.stale = at::matmul((h + 0.01 * at::randn_like(h)).to(at::kFloat), wf);
  return l;
}

bench::ChainRun chain_of(const at::Tensor& output) {
  bench::ChainRun run;
  run.outputs = {output};
  return run;
}

}  // namespace

TEST_CASE("output match: a rounding step is the dtype's spacing at the magnitude", "[validation][output-match]") {
  CHECK(rounding_step(at::kBFloat16, 10.0) == 0.0625);
  CHECK(rounding_step(at::kBFloat16, 8.0) == 0.0625);
  CHECK(rounding_step(at::kBFloat16, 7.99) == 0.03125);
  CHECK(rounding_step(at::kHalf, 1.0) == std::ldexp(1.0, -10));
  CHECK(rounding_step(at::kHalf, 0.75) == std::ldexp(1.0, -11));
  CHECK(rounding_step(at::kFloat, 10.0) == 0.0);
  CHECK(rounding_step(at::kBFloat16, 0.0) == 0.0);
}

TEST_CASE("output match: bfloat16 logits one or two rounding steps apart at a thousand of 512000 elements pass",
          "[validation][output-match]") {
  const Decoder d = make_decoder();
  const at::Tensor eager = bf16(logits64(d, d.h));
  REQUIRE(eager.numel() == 512000);
  for (const double steps : {1.0, 2.0}) {
    for (const bool at_largest : {false, true}) {
      const at::Tensor graph = moved(eager, 1000, steps, at_largest);
      for (const auto& [rtol, atol] : {std::pair{kBf16Rtol, kBf16Atol}, std::pair{kTightRtol, kTightAtol}}) {
        const OutputMatch m = match_output(eager, graph, rtol, atol);
        INFO("steps " << steps << (at_largest ? " at the largest magnitude" : " at each element's") << ", rtol " << rtol
                      << ": " << m.describe());
        CHECK(m.ok());
        if (m.outside > 0) CHECK(m.how == OutputMatch::How::kRounding);
      }
    }
  }
  // Every element one step off at its own magnitude (another kernel rounding everything) passes too.
  const OutputMatch all = match_output(eager, moved(eager, eager.numel(), 1.0, false), kTightRtol, kTightAtol);
  INFO(all.describe());
  CHECK(all.ok());
}

TEST_CASE("output match: a stale input, a missed cache update and pieces in the wrong order fail",
          "[validation][output-match]") {
  const Decoder d = make_decoder();
  const at::Tensor eager = bf16(attention_logits64(d, d.h, d.k, d.v));
  // The step run on a nearby earlier hidden state (the input buffer not refreshed).
  const at::Tensor h_before = d.h + 0.1 * at::randn_like(d.h);
  const at::Tensor stale = bf16(attention_logits64(d, h_before, d.k, d.v));
  // The cache's last position never written: its keys and values still zero.
  at::Tensor k_missed = d.k.clone(), v_missed = d.v.clone();
  k_missed.select(1, kCache - 1).zero_();
  v_missed.select(1, kCache - 1).zero_();
  const at::Tensor missed = bf16(attention_logits64(d, d.h, k_missed, v_missed));
  // Two pieces (a projection, then GELU of another) run in the wrong order.
  at::manual_seed(11);
  const at::Tensor a = at::randn({kWidth, kWidth}, at::kDouble) / 8.0;
  const at::Tensor b = at::randn({kWidth, kWidth}, at::kDouble) / 8.0;
  const auto piece_a = [&](const at::Tensor& x) { return at::matmul(x, a); };
  const auto piece_b = [&](const at::Tensor& x) { return at::gelu(at::matmul(x, b)); };
  const at::Tensor in_order = bf16(logits64(d, piece_b(piece_a(d.h))));
  const at::Tensor wrong_order = bf16(logits64(d, piece_a(piece_b(d.h))));
  for (const auto& [rtol, atol] : {std::pair{kBf16Rtol, kBf16Atol}, std::pair{kTightRtol, kTightAtol}}) {
    const OutputMatch s = match_output(eager, stale, rtol, atol);
    const OutputMatch m = match_output(eager, missed, rtol, atol);
    const OutputMatch o = match_output(in_order, wrong_order, rtol, atol);
    INFO("stale: " << s.describe() << "\nmissed: " << m.describe() << "\norder: " << o.describe());
    CHECK_FALSE(s.ok());
    CHECK_FALSE(m.ok());
    CHECK_FALSE(o.ok());
  }
}

TEST_CASE("output match: with a float64 reference, PyTorch's rule (3 x eager's RMSE) decides",
          "[validation][output-match]") {
  const Decoder d = make_decoder();
  const at::Tensor exact = logits64(d, d.h);
  const at::Tensor eager = bf16(exact);
  const OutputMatch rounding = match_output(eager, moved(eager, 1000, 2.0, false), kTightRtol, kTightAtol, exact);
  INFO(rounding.describe());
  CHECK(rounding.how == OutputMatch::How::kReference);
  const at::Tensor stale = bf16(logits64(d, d.h + 0.1 * at::randn_like(d.h)));
  const OutputMatch wrong = match_output(eager, stale, kTightRtol, kTightAtol, exact);
  INFO(wrong.describe());
  CHECK(wrong.how == OutputMatch::How::kMismatch);
}

TEST_CASE("output match: float32 compiled code with a float64 reference: another summation order passes, a stale "
          "input fails", "[validation][output-match]") {
  const SummedTwoWays l = summed_two_ways();
  const OutputMatch alone = match_output(l.eager, l.reordered, 1e-3, 1e-4);
  INFO(alone.describe());
  REQUIRE_FALSE(alone.ok());  // the case this rule is for: the tolerances alone call it different
  const OutputMatch judged = match_output(l.eager, l.reordered, 1e-3, 1e-4, l.exact);
  INFO(judged.describe());
  CHECK(judged.how == OutputMatch::How::kReference);
  const OutputMatch wrong = match_output(l.eager, l.stale, 1e-3, 1e-4, l.exact);
  INFO(wrong.describe());
  CHECK(wrong.how == OutputMatch::How::kMismatch);
}

// The check of a chain of pieces against the whole model (bench/models/script_pieces.h), which
// applies this rule: a chain within the tolerances passes silently, without making the float64
// reference; a chain of compiled pieces that sums in another order passes by the float64 rule and
// says so (the note every record of the case carries); a wrong chain fails either way.
TEST_CASE("chain check: within the tolerances it passes without a note", "[validation][pieces]") {
  const SummedTwoWays l = summed_two_ways();
  bool reference_made = false;
  const std::string note = bench::require_chain_equals_whole(chain_of(l.eager.clone()), 3, {l.eager}, 1e-3, 1e-4,
                                                             "model m.pt", [&] {
                                                               reference_made = true;
                                                               return std::vector<at::Tensor>{l.exact};
                                                             });
  CHECK(note.empty());
  CHECK_FALSE(reference_made);
}

TEST_CASE("chain check: another summation order passes by the float64 rule, and says so", "[validation][pieces]") {
  const SummedTwoWays l = summed_two_ways();
  const std::string note = bench::require_chain_equals_whole(chain_of(l.reordered), 3, {l.eager}, 1e-3, 1e-4,
                                                             "model m.pt", [&] { return std::vector<at::Tensor>{l.exact}; });
  INFO(note);
  CHECK(note.find("the chain of 3 pieces passed against the whole model m.pt run in float64") != std::string::npos);
  CHECK(note.find("not by the tolerances: output 0 differs by up to") != std::string::npos);
  const auto without_reference = [&] {
    bench::require_chain_equals_whole(chain_of(l.reordered), 3, {l.eager}, 1e-3, 1e-4, "model m.pt");
  };
  CHECK_THROWS_AS(without_reference(), EngineError);
  CHECK_THROWS_WITH(without_reference(), Catch::Contains("the chain of 3 pieces differs from the whole model m.pt: output 0"));
}

TEST_CASE("chain check: a chain from a wrong input fails, float64 reference or not", "[validation][pieces]") {
  const SummedTwoWays l = summed_two_ways();
  const auto wrong = [&] {
    bench::require_chain_equals_whole(chain_of(l.stale), 3, {l.eager}, 1e-3, 1e-4, "model m.pt",
                                      [&] { return std::vector<at::Tensor>{l.exact}; });
  };
  CHECK_THROWS_AS(wrong(), EngineError);
  CHECK_THROWS_WITH(wrong(), Catch::Contains("the chain of 3 pieces differs from the whole model m.pt"));
}

TEST_CASE("output match: float32 is judged by the tolerances, NaN never passes", "[validation][output-match]") {
  const at::Tensor e = at::linspace(1.0, 2.0, 100, at::kFloat);
  at::Tensor a = e.clone();
  a[5] = a[5].item<float>() * (1.0f + 1e-4f);
  CHECK_FALSE(match_output(e, a, kTightRtol, kTightAtol).ok());
  CHECK(match_output(e, a, 1e-3, 1e-6).ok());
  at::Tensor with_nan = bf16(e.to(at::kDouble));
  with_nan[3] = std::nan("");
  CHECK_FALSE(match_output(bf16(e.to(at::kDouble)), with_nan, kBf16Rtol, kBf16Atol).ok());
}

TEST_CASE("validation: bfloat16 rounding passes whether or not eager repeated itself, a stale input fails either way",
          "[validation][output-match]") {
  const Decoder d = make_decoder();
  const at::Tensor eager = bf16(logits64(d, d.h));
  const at::Tensor graph = moved(eager, 917, 1.0, true);
  const Observations expected{{eager}};
  const Observations correct{{graph}};
  const Observations wrong{{bf16(logits64(d, d.h + 0.1 * at::randn_like(d.h)))}};
  const std::vector<Observations> repeats{{{eager}}, {{eager}}};                            // eager deterministic
  const std::vector<Observations> differs{{{moved(eager, 2000, 1.0, true)}}, {{eager}}};  // eager not
  for (const auto* spread : {&repeats, &differs}) {
    const ValidationResult ok = compare_observations(expected, correct, kBf16Rtol, kBf16Atol, *spread);
    INFO(ok.message << ok.note);
    CHECK(ok.ok);
    CHECK_THAT(ok.note, Catch::Contains("rounding"));
    const ValidationResult bad = compare_observations(expected, wrong, kBf16Rtol, kBf16Atol, *spread);
    CHECK_FALSE(bad.ok);
    CHECK_FALSE(bad.beyond_eager_spread);  // no more eager runs could change the verdict
    CHECK_THAT(bad.message, Catch::Contains("rounding steps"));
  }
}
