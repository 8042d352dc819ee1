// The check of a chain of pieces against the whole model (bench/models/script_pieces.h): a chain
// within the tolerances passes silently; a chain of compiled pieces that sums in another order
// passes by the float64 rule and says so (the note each record of the case carries); a wrong chain
// fails, with or without the float64 reference.
#include "support/catch.h"

#include "models/script_pieces.h"

#include "graphbench/core/errors.h"

#include <ATen/ATen.h>

namespace {

using namespace graphbench;

struct Logits {
  at::Tensor exact;      // float64
  at::Tensor whole;      // float32, one summation order
  at::Tensor reordered;  // float32, the width summed in two halves (another kernel's order)
  at::Tensor stale;      // float32, from a slightly wrong input
};

// Logits summing large terms (16 x 32000), some near zero: another summation order moves them by
// more than rtol 1e-3 of themselves.
Logits make_logits() {
  at::manual_seed(11);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  const at::Tensor w = at::randn({64, 32000}, f64) * 16.0, h = at::randn({16, 64}, f64) * 16.0;
  const at::Tensor hf = h.to(at::kFloat), wf = w.to(at::kFloat);
  Logits l;
  l.exact = at::matmul(h, w);
  l.whole = at::matmul(hf, wf);
  // Split where no BLAS blocks (17 of 64), the later part summed first.
  l.reordered = at::matmul(hf.slice(1, 17), wf.slice(0, 17)) + at::matmul(hf.slice(1, 0, 17), wf.slice(0, 0, 17));
  l.stale = at::matmul((h + 0.01 * at::randn_like(h)).to(at::kFloat), wf);
  return l;
}

bench::ChainRun chain_of(const at::Tensor& output) {
  bench::ChainRun run;
  run.outputs = {output};
  return run;
}

}  // namespace

TEST_CASE("chain check: within the tolerances it passes without a note", "[validation][pieces]") {
  const Logits l = make_logits();
  bool reference_made = false;
  const std::string note = bench::require_chain_equals_whole(chain_of(l.whole.clone()), 3, {l.whole}, 1e-3, 1e-4,
                                                             "model m.pt", [&] {
                                                               reference_made = true;
                                                               return std::vector<at::Tensor>{l.exact};
                                                             });
  CHECK(note.empty());
  CHECK_FALSE(reference_made);  // the float64 model runs only where the tolerances fail
}

TEST_CASE("chain check: another summation order passes by the float64 rule, and says so", "[validation][pieces]") {
  const Logits l = make_logits();
  REQUIRE_FALSE(bench::chain_difference({l.reordered}, {l.whole}, 1e-3, 1e-4).empty());  // the tolerances alone fail
  const std::string note = bench::require_chain_equals_whole(chain_of(l.reordered), 3, {l.whole}, 1e-3, 1e-4,
                                                             "model m.pt", [&] { return std::vector<at::Tensor>{l.exact}; });
  INFO(note);
  CHECK(note.find("the chain of 3 pieces passed against the whole model m.pt run in float64") != std::string::npos);
  CHECK(note.find("not by the tolerances: output 0 differs by up to") != std::string::npos);
  // Without the float64 reference the same chain fails.
  const auto without_reference = [&] {
    bench::require_chain_equals_whole(chain_of(l.reordered), 3, {l.whole}, 1e-3, 1e-4, "model m.pt");
  };
  CHECK_THROWS_AS(without_reference(), EngineError);
  CHECK_THROWS_WITH(without_reference(), Catch::Contains("the chain of 3 pieces differs from the whole model m.pt: output 0"));
}

TEST_CASE("chain check: a chain from a wrong input fails, float64 reference or not", "[validation][pieces]") {
  const Logits l = make_logits();
  const auto wrong = [&] {
    bench::require_chain_equals_whole(chain_of(l.stale), 3, {l.whole}, 1e-3, 1e-4, "model m.pt",
                                      [&] { return std::vector<at::Tensor>{l.exact}; });
  };
  CHECK_THROWS_AS(wrong(), EngineError);
  CHECK_THROWS_WITH(wrong(), Catch::Contains("the chain of 3 pieces differs from the whole model m.pt"));
}
