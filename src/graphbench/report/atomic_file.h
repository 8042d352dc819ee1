// Writes a result file so that a reader never sees half of it: a temporary file in the same
// directory, flushed to disk, then renamed over the target.
#pragma once

#include <filesystem>
#include <string>

namespace graphbench {

// Writes `content` to `path` through ".<filename>.tmp-<pid>" beside it (creating missing parent
// directories), fsyncs it and renames it over `path`. On any failure the temporary file is
// removed, `path` is left as it was, and graphbench::Error names the path and the system reason.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace graphbench
