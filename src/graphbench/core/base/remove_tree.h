// Removes a directory and everything in it.
//
// Not std::filesystem::remove_all: the CUDA LibTorch of the Python wheels exports a remove_all of
// its own (built into libtorch.so from an older libstdc++), the dynamic linker binds graphbench's
// call to that copy, and it calls through a null pointer (found on an H100 with LibTorch 2.11:
// the crash of `--repetitions` after its repetitions ran, docs/measuring.md). POSIX nftw instead.
#pragma once

#include <string>

namespace graphbench {

// Depth first, links not followed. Whatever cannot be removed is left behind; false then.
bool remove_tree(const std::string& path);

}  // namespace graphbench
