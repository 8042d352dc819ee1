#include "graphbench/core/report/progress.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace graphbench {

namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Erase to the end of the line (ANSI "EL"), so a shorter text leaves nothing of a longer one.
constexpr const char* kClearToEnd = "\033[K";

}  // namespace

ProgressLine::ProgressLine(std::ostream* terminal, double min_interval_s, Clock clock)
    : out_(terminal), min_interval_s_(min_interval_s), clock_(clock ? std::move(clock) : Clock(steady_seconds)) {}

ProgressLine::~ProgressLine() { clear(); }

bool ProgressLine::due() const { return out_ != nullptr && clock_() - last_shown_s_ >= min_interval_s_; }

void ProgressLine::update(const std::string& text, bool force) {
  if (out_ == nullptr) return;
  const double now = clock_();
  if (!force && now - last_shown_s_ < min_interval_s_) return;
  last_shown_s_ = now;
  *out_ << '\r' << text << kClearToEnd << std::flush;
  shown_ = true;
}

void ProgressLine::clear() {
  if (out_ == nullptr || !shown_) return;
  *out_ << '\r' << kClearToEnd << std::flush;
  shown_ = false;
}

std::string format_duration(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 0.0009995) return fmt::format("{:.0f} us", seconds * 1e6);  // a GPU's step
  if (seconds < 0.9995) return fmt::format("{:.0f} ms", seconds * 1e3);
  if (seconds < 10) return fmt::format("{:.1f} s", seconds);
  const auto whole = static_cast<std::int64_t>(std::llround(seconds));
  if (whole < 60) return fmt::format("{} s", whole);
  if (whole < 3600) return fmt::format("{} min {:02d} s", whole / 60, whole % 60);
  return fmt::format("{} h {:02d} min", whole / 3600, (whole % 3600) / 60);
}

std::string validation_progress_text(const std::string& case_name, const std::string& variant, int index, int count,
                                     int step, int steps) {
  return fmt::format("{}: validating {} ({} of {}), step {} of {}", case_name, variant, index, count, step, steps);
}

std::string sampling_progress_text(const std::string& case_name, const std::vector<TimedVariant>& variants,
                                   const SamplingProgress& progress) {
  using Phase = SamplingProgress::Phase;
  if (progress.phase == Phase::kWarmUp) {
    return fmt::format("{}: warming up {}, step {} of {} (at most {} left)", case_name, progress.variant,
                       progress.step, progress.steps, format_duration(progress.max_left_s));
  }
  if (progress.phase == Phase::kCalibration) {
    return fmt::format("{}: calibrating {} (at most {} left)", case_name, progress.variant,
                       format_duration(progress.max_left_s));
  }
  std::string counts;
  for (const auto& v : variants) {
    if (!v.error.empty()) continue;
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", v.name, v.device_us.size());
  }
  const std::string left =
      progress.min_left_s > 0
          ? fmt::format("about {} left (at most {})", format_duration(progress.min_left_s),
                        format_duration(progress.max_left_s))
          : fmt::format("until the noise target, at most {} left", format_duration(progress.max_left_s));
  return fmt::format("{}: sampling, round {}: {} samples; {}", case_name, progress.rounds, counts, left);
}

std::string epoch_progress_text(int epoch, int epochs, std::int64_t samples, std::int64_t dataset_size,
                                std::optional<double> loss, std::optional<double> seconds_left) {
  std::string text = fmt::format("Train Epoch: {} [{:5d}/{:5d}]", epoch, samples, dataset_size);
  if (loss) text += fmt::format(" Loss: {:.4f}", *loss);
  text += fmt::format(" | epoch {} of {}", epoch, epochs);
  if (seconds_left) text += fmt::format(", about {} left", format_duration(*seconds_left));
  return text;
}

CaseEstimate estimate_case(double eager_step_s, int variants, int validation_steps, const SamplingSpec& sampling) {
  CaseEstimate e;
  e.step_s = std::max(eager_step_s, 0.0);
  const double v = std::max(variants, 0);
  const double one_step_each_s = v * e.step_s;
  // Validation: every variant's steps, cut to its share of the time limit (one step each at least).
  e.validation_s = std::min(v * std::max(validation_steps, 0) * e.step_s,
                            std::max(kValidationShare * sampling.max_time_s, one_step_each_s));
  // Sampling has what validation left of the time limit; the timeout is checked after each round,
  // and there is one round at least. The warm-up has its share of what is left.
  const double left_s = std::max(sampling.max_time_s - e.validation_s, 0.0);
  // A sample lasts one step at least and min_sample_time_ms at least; calibration takes about two.
  const double sample_s = std::max(e.step_s, sampling.min_sample_time_ms * 1e-3);
  const double warm_up_s = std::min(v * std::max(sampling.warmup_steps, 0) * e.step_s,
                                    std::max(kWarmUpShare * left_s, one_step_each_s)) +
                           v * 2.0 * sample_s;
  const double samples = std::max<double>(sampling.min_samples, std::ceil(sampling.min_time_s / sample_s));
  const double rounds_s = v * samples * sample_s;
  e.sampling_max_s = std::max(warm_up_s, left_s) + v * sample_s;
  e.sampling_min_s = std::min(warm_up_s + rounds_s, e.sampling_max_s);
  return e;
}

std::string long_case_note(const std::string& case_name, const CaseEstimate& estimate,
                           const std::vector<std::string>& other_cases, const SamplingSpec& sampling, int variants) {
  if (estimate.total_min_s() < kLongCaseSeconds) return "";
  // "A to B", or "A" when B is hardly more.
  const auto range = [](double least, double most) {
    return most > least * 1.05 ? fmt::format("{} to {}", format_duration(least), format_duration(most))
                               : format_duration(least);
  };
  // Only what would shorten it from the settings in force: no flag already given is offered again.
  std::vector<std::string> ways;
  if (!other_cases.empty()) ways.push_back(fmt::format("leave it out (--cases {})", fmt::join(other_cases, ",")));
  if (sampling.max_time_s > kShortMaxTimeSeconds) {
    ways.push_back(fmt::format("lower its time limit (--max-time {:g}: validation, warm-up and sampling stop by then)",
                               kShortMaxTimeSeconds));
  }
  std::vector<std::string> less;
  if (sampling.warmup_steps > 1) less.push_back("--warmup 1");
  if (sampling.min_samples > 3) less.push_back("--min-samples 3");
  if (sampling.max_samples > 5) less.push_back("--max-samples 5");
  if (sampling.min_time_s > 0.1) less.push_back("--min-time 0.1");
  if (!less.empty()) ways.push_back(fmt::format("sample less ({})", fmt::join(less, " ")));
  if (variants > 2) ways.push_back("time fewer variants (--variants)");
  std::string shorter;
  for (std::size_t i = 0; i < ways.size(); ++i) {
    shorter += (i == 0 ? "" : i + 1 == ways.size() ? " or " : ", ") + ways[i];
  }
  return fmt::format("{}: one eager step took {} on this device, so this case needs about {} (validation {}, sampling {}){}",
                     case_name, format_duration(estimate.step_s),
                     range(estimate.total_min_s(), estimate.validation_s + estimate.sampling_max_s),
                     format_duration(estimate.validation_s), range(estimate.sampling_min_s, estimate.sampling_max_s),
                     shorter.empty() ? "; its steps are that long at the least settings (one step of each variant "
                                       "validated, warmed up and sampled)"
                                     : "; to shorten it, " + shorter);
}

}  // namespace graphbench
