// What a zip archive (an AOTInductor package, .pt2) takes unpacked: the sum of its entries'
// uncompressed sizes, read from its central directory without unpacking anything (zip64 included).
#pragma once

#include <cstdint>
#include <string>

namespace graphbench {

// Throws InputError naming the file and the problem: unreadable, no end-of-central-directory
// record (not a zip archive), or a central directory that is cut short or malformed.
std::uint64_t unpacked_zip_bytes(const std::string& path);

}  // namespace graphbench
