// The "published" key of a case: the figures a case reproduces (one object or a list of them),
// each compared with one measured variant of the case.
#pragma once

#include "graphbench/core/json/json_checker.h"
#include "graphbench/core/suite/suite_spec.h"
#include "graphbench/core/workload/descriptor.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace graphbench {

// Reads "published" at `pointer`; each object's "variant" must be a variant `workload` declares.
std::vector<PublishedFigures> read_published(const JsonChecker& checker,
                                             const nlohmann::json& value,
                                             const std::string& pointer,
                                             const WorkloadDescriptor& workload);

// Whether published figures describe a run on `device` ("cpu" or "cuda"): figures published for
// a GPU (their "device" names one: "Tesla K80") describe CUDA runs only, figures whose device
// names a CPU describe CPU runs only. A sweep's points other than the case as written get none
// (expand_sweeps, sweep_fields.h): the figures describe the case's own shape.
bool published_applies(const PublishedFigures& figures, const std::string& device);

}  // namespace graphbench
