// Progress on a terminal: one line rewritten in place while a long phase runs, and its texts; with
// no terminal every call is a no-op. Also the estimate printed before a case that will take long.
// See docs/measuring.md (progress and estimates).
#pragma once

#include "graphbench/core/base/non_copyable.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/sampling/sampler.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace graphbench {

class ProgressLine : NonCopyable {
 public:
  using Clock = std::function<double()>;  // seconds on a steady clock
  // `terminal` null: silent. Updates closer together than `min_interval_s` are dropped.
  explicit ProgressLine(std::ostream* terminal, double min_interval_s = 0.1, Clock clock = {});
  ~ProgressLine();

  bool active() const { return out_ != nullptr; }
  // True when an update would be shown now (lets callers skip building the text).
  bool due() const;
  // Replaces the line with `text` ("\r", the text, clear to the end of the line) when due or forced.
  void update(const std::string& text, bool force = false);
  // Erases the line, so that ordinary output starts on a clean line.
  void clear();

 private:
  std::ostream* out_;
  double min_interval_s_;
  Clock clock_;
  double last_shown_s_ = -1e300;
  bool shown_ = false;
};

// "40 ms", "2.5 s", "12 s", "2 min 05 s", "1 h 02 min".
std::string format_duration(double seconds);

// "linear-dropout-large: validating graph (2 of 4), step 3 of 5"
std::string validation_progress_text(const std::string& case_name, const std::string& variant, int index, int count,
                                     int step, int steps);

// "gelu-small: sampling, round 12: eager 12, graph 12 samples; about 3.0 s left (at most 14 s)",
// "...: warming up graph, step 3 of 20 (at most 14 s left)", "...: calibrating graph (...)".
std::string sampling_progress_text(const std::string& case_name, const std::vector<TimedVariant>& variants,
                                   const SamplingProgress& progress);

// The tutorial's progress line plus where the run stands:
// "Train Epoch: 3 [12800/60000] Loss: 0.5123 | epoch 3 of 10, about 4.1 s left"
std::string epoch_progress_text(int epoch, int epochs, std::int64_t samples, std::int64_t dataset_size,
                                std::optional<double> loss, std::optional<double> seconds_left);

// How long a benchmark case will take from the time of one eager step, under its time limit: its
// validation and warm-up cut to their shares, then sampling until its minimums (at least) or the
// limit (at most).
struct CaseEstimate {
  double step_s = 0.0;
  double validation_s = 0.0;
  double sampling_min_s = 0.0;
  double sampling_max_s = 0.0;
  double total_min_s() const { return validation_s + sampling_min_s; }
};
CaseEstimate estimate_case(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling);

// Cases estimated to take at least this long get a note before they run.
inline constexpr double kLongCaseSeconds = 30.0;
// The time limit the note offers (--max-time), where the one in force is longer.
inline constexpr double kShortMaxTimeSeconds = 10.0;

// The note: the estimate and the options that would shorten the case (--cases, --max-time, less
// sampling, fewer variants), never the value already given; empty below kLongCaseSeconds.
std::string long_case_note(const std::string& case_name, const CaseEstimate& estimate,
                           const std::vector<std::string>& other_cases, const SamplingSpec& sampling, int variants);

}  // namespace graphbench
