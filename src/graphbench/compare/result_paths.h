// What `graphbench compare` accepts as a run: a results.json file, or the folder a run wrote
// (`-o DIR`, default graphbench-out/<suite>), whose results.json it reads.
#pragma once

#include <string>

namespace graphbench {

// `path` itself when it is not a folder; DIR/results.json for a folder DIR. InputError naming the
// folder when it holds no results.json.
std::string results_file_of(const std::string& path);

}  // namespace graphbench
