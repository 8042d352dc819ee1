// Naming what failed: FailedOpTrace (the ATen ops an exception unwound through, which a capture
// failure reports) and error_text (messages without C++ backtraces; a TorchScript error as the
// model's own message and the line that raised it).
#include "support/catch.h"

#include "graphbench/engine/exec/error_text.h"
#include "graphbench/engine/exec/failed_op_trace.h"

#include <torch/jit.h>
#include <torch/script.h>

namespace {

using graphbench::FailedOpTrace;
using graphbench::error_text;

// A TorchScript function that multiplies mismatched matrices.
const char* const kLinearSource = "def f(x, w):\n    return torch.linear(x, w)\n";

}  // namespace

TEST_CASE("FailedOpTrace names the ATen op an exception came from, innermost first") {
  FailedOpTrace trace;
  CHECK(trace.unwound_ops().empty());
  CHECK(trace.describe().empty());
  CHECK_THROWS(at::mm(at::ones({2, 3}), at::ones({2, 3})));
  REQUIRE_FALSE(trace.unwound_ops().empty());
  CHECK(trace.unwound_ops().front() == "aten::mm");
  CHECK_THAT(trace.describe(), Catch::StartsWith("in aten::mm"));

  // Work that goes on normally afterwards clears what the caught exception left.
  const at::Tensor ok = at::ones({2}) + 1;
  CHECK(ok.sum().item<double>() == 4.0);
  CHECK(trace.unwound_ops().empty());
}

TEST_CASE("FailedOpTrace sees through TorchScript to the failing op, and stops tracing when destroyed") {
  const auto unit = torch::jit::compile(kLinearSource);
  {
    FailedOpTrace trace;
    CHECK_THROWS(unit->get_function("f")({at::ones({2, 5}), at::ones({3, 4})}));
    CHECK_THAT(trace.describe(), Catch::Contains("aten::linear"));
  }
  FailedOpTrace later;
  CHECK(later.unwound_ops().empty());
  CHECK_THROWS(at::mm(at::ones({2, 3}), at::ones({2, 3})));
  CHECK(later.unwound_ops().front() == "aten::mm");
}

TEST_CASE("error_text: a TorchScript error is the model's message and the line that raised it") {
  const auto unit = torch::jit::compile(kLinearSource);
  try {
    unit->get_function("f")({at::ones({2, 5}), at::ones({3, 4})});
    FAIL("no error");
  } catch (const std::exception& e) {
    REQUIRE_THAT(e.what(), Catch::Contains("Traceback of TorchScript"));
    CHECK(error_text(e) ==
          "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 4x3) (TorchScript: `return "
          "torch.linear(x, w)`)");
  }
}

TEST_CASE("error_text: a traced model's error leaves out the Python frames it was traced from") {
  // The shape of the message a traced piece raised on an H100 (its frames shortened).
  const std::string message =
      "The following operation failed in the TorchScript interpreter.\n"
      "Traceback of TorchScript (most recent call last):\n"
      "  File \"code/__torch__.py\", line 9, in forward\n"
      "    nonzero = torch.nonzero(in0)\n"
      "              ~~~~~~~~~~~~~ <--- HERE\n"
      "Traceback of TorchScript, original code (most recent call last):\n"
      "<eval_with_key>.2(5): forward\n"
      "/opt/torch/lib/python3.12/site-packages/torch/nn/modules/module.py(1769): _slow_forward\n"
      "/work/main/scripts/export_model.py(507): <module>\n"
      "RuntimeError: called a synchronizing CUDA operation\n";
  CHECK(error_text(message) ==
        "RuntimeError: called a synchronizing CUDA operation (TorchScript: `nonzero = torch.nonzero(in0)`)");
}

TEST_CASE("error_text: no C++ backtrace, one line") {
  try {
    at::mm(at::ones({2, 3}), at::ones({2, 3}));
    FAIL("no error");
  } catch (const c10::Error& e) {
    REQUIRE_THAT(e.what(), Catch::Contains("Exception raised from"));  // what() carries the backtrace
    const std::string text = error_text(e);
    CHECK(text == "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
    CHECK_THAT(text, !Catch::Contains("Exception raised from"));
    CHECK_THAT(text, !Catch::Contains("\n"));
  }
  CHECK(error_text(std::runtime_error("first line\n  second line\n\n")) == "first line second line");
  CHECK(error_text(std::string("boom\nException raised from f at x.cpp:1 (most recent call first):\nframe #0: ...")) ==
        "boom");
}
