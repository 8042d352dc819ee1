// Row kinds and their floors (see row_kind.h).
#include "graphbench/core/compare/row_kind.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace graphbench::compare_detail {

namespace {

// What each kind is called, its floor, and its noise: noisier kinds rank higher; unknown ranks with
// host-bound (its floor is the same) but is named only when no record could be classified. In
// RowKind's order.
struct KindFacts {
  const char* name;
  double floor;
  int noise_rank;
};
constexpr KindFacts kKindFacts[] = {
    {"device-bound", kDeviceBoundFloor, 0},
    {"mixed", kMixedFloor, 1},
    {"host-bound", kHostBoundFloor, 2},
    {"unknown", kUnknownFloor, 2},
};
const KindFacts& facts_of(RowKind kind) { return kKindFacts[static_cast<int>(kind)]; }
int noise_rank(RowKind kind) { return facts_of(kind).noise_rank; }

// How the host's issue time compares to the step: "host issues a step in 61% of it".
std::string issue_text(const ResultRecord& r) {
  const double median = r.stats ? r.stats->median : 0.0;
  if (!r.issue_median_us || !(median > 0.0)) return "";
  return fmt::format(", host issues a step in {:.0f}% of it", *r.issue_median_us / median * 100.0);
}

// One record's kind, with the figures it was read from ("busy 85% of the step, host issues in 61%").
struct RecordKind {
  RowKind kind = RowKind::kUnknown;
  std::string evidence;
};

RecordKind kind_of(const ResultRecord& record) {
  if (!record.profile || !record.profile->busy_share) return {RowKind::kUnknown, "no kernel profile"};
  const double busy = *record.profile->busy_share;
  const bool host_bound = record.host_bound.value_or(false);
  std::string evidence = fmt::format("device busy {:.0f}% of the step{}{}", busy * 100.0, issue_text(record),
                                     host_bound ? ", host-bound" : "");
  RowKind kind = RowKind::kHostBound;
  if (busy >= kDeviceBoundBusyShare && !host_bound) {
    kind = RowKind::kDeviceBound;
  } else if (busy >= kMixedBusyShare) {
    kind = RowKind::kMixed;
  }
  return {kind, std::move(evidence)};
}

}  // namespace

const char* to_string(RowKind kind) { return facts_of(kind).name; }

RowKindJudgement judge_row_kind(const std::vector<const ResultRecord*>& records) {
  RowKindJudgement out;
  std::vector<std::string> evidence;
  bool first = true;
  for (const ResultRecord* record : records) {
    if (record == nullptr) continue;
    const RecordKind k = kind_of(*record);
    evidence.push_back(k.evidence);
    if (first || noise_rank(k.kind) > noise_rank(out.kind) ||
        (noise_rank(k.kind) == noise_rank(out.kind) && k.kind == RowKind::kUnknown)) {
      out.kind = k.kind;
    }
    first = false;
  }
  out.floor = facts_of(out.kind).floor;
  // Keep the evidence short: identical readings once.
  evidence.erase(std::unique(evidence.begin(), evidence.end()), evidence.end());
  out.why = fmt::format("{} ({}): floor {:.0f}%", to_string(out.kind), fmt::join(evidence, "; "), out.floor * 100.0);
  return out;
}

}  // namespace graphbench::compare_detail
