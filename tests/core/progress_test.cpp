// Progress lines and the long-case estimate: the texts, the terminal line's rewriting and
// throttling (on a scripted clock), and silence without a terminal.
#include "support/catch.h"

#include "graphbench/core/report/progress.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

using graphbench::CaseEstimate;
using graphbench::ProgressLine;
using graphbench::SamplingProgress;
using graphbench::SamplingSpec;
using graphbench::TimedVariant;

TimedVariant variant_with(const std::string& name, std::size_t samples, const std::string& error = "") {
  TimedVariant v;
  v.name = name;
  v.device_us.assign(samples, 10.0);
  v.error = error;
  return v;
}

}  // namespace

TEST_CASE("format_duration: microseconds, milliseconds, tenths below 10 s, then seconds, minutes, hours") {
  CHECK(graphbench::format_duration(2.04e-5) == "20 us");
  CHECK(graphbench::format_duration(0.0009999) == "1 ms");
  CHECK(graphbench::format_duration(0.0404) == "40 ms");
  CHECK(graphbench::format_duration(0.9999) == "1.0 s");
  CHECK(graphbench::format_duration(1.44) == "1.4 s");
  CHECK(graphbench::format_duration(9.94) == "9.9 s");
  CHECK(graphbench::format_duration(12.4) == "12 s");
  CHECK(graphbench::format_duration(125) == "2 min 05 s");
  CHECK(graphbench::format_duration(3725) == "1 h 02 min");
  CHECK(graphbench::format_duration(-1) == "0 us");
}

TEST_CASE("progress texts: validation, sampling phases and rounds, epochs") {
  CHECK(graphbench::validation_progress_text("big", "graph", 2, 4, 3, 5) == "big: validating graph (2 of 4), step 3 of 5");

  const std::vector<TimedVariant> variants = {variant_with("eager", 12), variant_with("graph", 11),
                                              variant_with("static", 3, "it threw")};
  SamplingProgress warm_up;
  warm_up.phase = SamplingProgress::Phase::kWarmUp;
  warm_up.variant = "graph";
  warm_up.step = 3;
  warm_up.steps = 20;
  warm_up.max_left_s = 14.2;
  CHECK(graphbench::sampling_progress_text("small", variants, warm_up) ==
        "small: warming up graph, step 3 of 20 (at most 14 s left)");
  warm_up.phase = SamplingProgress::Phase::kCalibration;
  CHECK(graphbench::sampling_progress_text("small", variants, warm_up) == "small: calibrating graph (at most 14 s left)");

  SamplingProgress rounds;
  rounds.rounds = 12;
  rounds.min_left_s = 3.04;
  rounds.max_left_s = 14;
  // A failed variant has left the rotation: not listed.
  CHECK(graphbench::sampling_progress_text("small", variants, rounds) ==
        "small: sampling, round 12: eager 12, graph 11 samples; about 3.0 s left (at most 14 s)");
  rounds.min_left_s = 0;
  CHECK(graphbench::sampling_progress_text("small", variants, rounds) ==
        "small: sampling, round 12: eager 12, graph 11 samples; until the noise target, at most 14 s left");

  CHECK(graphbench::epoch_progress_text(3, 10, 12800, 60000, 0.51234, 4.12) ==
        "Train Epoch: 3 [12800/60000] Loss: 0.5123 | epoch 3 of 10, about 4.1 s left");
  CHECK(graphbench::epoch_progress_text(1, 2, 64, 60000, std::nullopt, std::nullopt) ==
        "Train Epoch: 1 [   64/60000] | epoch 1 of 2");
}

TEST_CASE("ProgressLine: rewrites one line, at most every interval, and clears it") {
  double now = 0.0;
  std::ostringstream terminal;
  {
    ProgressLine line(&terminal, 0.5, [&] { return now; });
    REQUIRE(line.active());
    CHECK(line.due());
    line.update("first");
    CHECK(terminal.str() == "\rfirst\033[K");
    now = 0.2;
    CHECK_FALSE(line.due());
    line.update("dropped");  // too soon
    CHECK(terminal.str() == "\rfirst\033[K");
    line.update("forced", /*force=*/true);
    CHECK(terminal.str() == "\rfirst\033[K\rforced\033[K");
    now = 0.8;
    CHECK(line.due());
    line.update("later");
    line.clear();
    CHECK(terminal.str() == "\rfirst\033[K\rforced\033[K\rlater\033[K\r\033[K");
    line.clear();  // nothing shown: nothing to erase
    CHECK(terminal.str() == "\rfirst\033[K\rforced\033[K\rlater\033[K\r\033[K");
    line.update("last", true);
  }
  // The destructor erases what is still shown.
  CHECK(terminal.str() == "\rfirst\033[K\rforced\033[K\rlater\033[K\r\033[K\rlast\033[K\r\033[K");
}

TEST_CASE("ProgressLine without a terminal prints nothing") {
  ProgressLine line(nullptr);
  CHECK_FALSE(line.active());
  CHECK_FALSE(line.due());
  line.update("anything", true);
  line.clear();  // no stream to write to: nothing can crash or print
}

TEST_CASE("estimate_case: validation and sampling from the time of one eager step, under the time limit") {
  SamplingSpec s;
  s.warmup_steps = 20;
  s.min_samples = 10;
  s.max_samples = 2000;
  s.min_time_s = 0.5;
  s.max_time_s = 15.0;
  s.min_sample_time_ms = 1.0;
  // 2 s per step, 3 variants, 5 validation steps: 30 s of validation, cut to its half of the
  // 15 s limit (7.5 s; one step of each variant, 6 s, at least).
  const CaseEstimate e = graphbench::estimate_case(2.0, 3, 5, s);
  CHECK(e.validation_s == Approx(7.5));
  // Warm-up 3 x 20 steps = 120 s, cut to one step each (6 s), calibration 3 x 2 steps (12 s):
  // already past the 7.5 s left of the limit, so one round more (6 s).
  CHECK(e.sampling_max_s == Approx(6.0 + 12.0 + 6.0));
  CHECK(e.sampling_min_s == Approx(24.0));
  CHECK(e.total_min_s() == Approx(31.5));

  // A long limit: validation whole, the warm-up cut to a quarter of what validation left.
  s.max_time_s = 600.0;
  const CaseEstimate slow = graphbench::estimate_case(2.0, 3, 5, s);
  CHECK(slow.validation_s == Approx(30.0));
  CHECK(slow.sampling_min_s == Approx(120.0 + 12.0 + 3 * 10 * 2.0));

  // A fast step: 10 samples of 1 ms at least, or 0.5 s of them, per variant.
  s.max_time_s = 15.0;
  const CaseEstimate fast = graphbench::estimate_case(1e-5, 2, 1, s);
  CHECK(fast.sampling_min_s == Approx(2 * (20 * 1e-5 + 2e-3) + 2 * 500 * 1e-3));
  CHECK(fast.sampling_max_s == Approx(15.0 - 2e-5 + 2e-3));
}

TEST_CASE("long_case_note: only for long cases, offering only what would shorten them") {
  SamplingSpec s;  // warm-up 10, 10 to 2000 samples, 0.5 s at least, 15 s limit
  s.max_time_s = 600.0;
  CHECK(graphbench::long_case_note("small", graphbench::estimate_case(0.001, 3, 5, s), {"large"}, s, 3).empty());
  const std::string note = graphbench::long_case_note("large", graphbench::estimate_case(2.0, 3, 5, s), {"small"}, s, 3);
  CHECK_THAT(note, Catch::Contains("large: one eager step took 2.0 s on this device"));
  CHECK_THAT(note, Catch::Contains("to shorten it, leave it out (--cases small), lower its time limit (--max-time 10: "
                                   "validation, warm-up and sampling stop by then), sample less (--warmup 1 "
                                   "--min-samples 3 --max-samples 5 --min-time 0.1) or time fewer variants (--variants)"));
  // A suite of one case: no --cases.
  const std::string alone = graphbench::long_case_note("large", graphbench::estimate_case(2.0, 3, 5, s), {}, s, 3);
  CHECK_THAT(alone, !Catch::Contains("--cases"));
  CHECK_THAT(alone, Catch::Contains("--max-time 10"));

  // The settings already given are not offered again: here every sampling flag is at the note's
  // value, two variants, one case, and a step of 20 s still makes the case long.
  SamplingSpec given;
  given.warmup_steps = 1;
  given.min_samples = 3;
  given.max_samples = 5;
  given.min_time_s = 0.1;
  given.max_time_s = 0.3;
  const std::string least = graphbench::long_case_note("huge", graphbench::estimate_case(20.0, 2, 1, given), {}, given, 2);
  CHECK_THAT(least, !Catch::Contains("--max-time") && !Catch::Contains("--warmup") && !Catch::Contains("--min-samples") &&
                        !Catch::Contains("--variants"));
  CHECK_THAT(least, Catch::Contains("its steps are that long at the least settings"));
  // Some given, some not: only the others are offered.
  given.min_samples = 10;
  const std::string some = graphbench::long_case_note("huge", graphbench::estimate_case(20.0, 2, 1, given), {}, given, 2);
  CHECK_THAT(some, Catch::Contains("to shorten it, sample less (--min-samples 3)"));
}
