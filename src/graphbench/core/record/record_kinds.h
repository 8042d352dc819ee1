// The kinds a result record names, with the one mapping to the strings results.json writes:
// each enum's names, in its order. No LibTorch here: the engine uses Mode and L2Cache too.
#pragma once

#include <iterator>
#include <optional>
#include <string>

namespace graphbench {

enum class RecordStatus { kOk, kSkipped, kFailed };
enum class RecordKind { kBenchmark, kTraining };  // timed steps; epochs of real training
enum class Mode { kInference, kTrain };            // what a step does to the model (engine/exec/policy.h)
// What one timed step did (Variant::method): kUnknown ("") in files written before records named it.
enum class StepMethod { kUnknown, kRun, kFeedRun, kFeedReplay, kReplay };
enum class L2Cache { kHot, kCold };  // left warm between timed steps, or flushed (engine/timing/step_timer.h)

template <class E> struct KindNames;
template <> struct KindNames<RecordStatus> { static constexpr const char* names[] = {"ok", "skipped", "failed"}; };
template <> struct KindNames<RecordKind> { static constexpr const char* names[] = {"benchmark", "training"}; };
template <> struct KindNames<Mode> { static constexpr const char* names[] = {"inference", "train"}; };
template <> struct KindNames<StepMethod> {
  static constexpr const char* names[] = {"", "run", "feed+run", "feed+replay", "replay"};
};
template <> struct KindNames<L2Cache> { static constexpr const char* names[] = {"hot", "cold"}; };

template <class E, class = decltype(KindNames<E>::names)>
const char* to_string(E value) { return KindNames<E>::names[static_cast<int>(value)]; }

// The kind written as `text`, or nullopt for a string that names none.
template <class E>
std::optional<E> from_string(const std::string& text) {
  for (std::size_t i = 0; i < std::size(KindNames<E>::names); ++i) {
    if (text == KindNames<E>::names[i]) return static_cast<E>(i);
  }
  return std::nullopt;
}

}  // namespace graphbench
