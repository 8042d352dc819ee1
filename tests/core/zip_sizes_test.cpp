// The unpacked size of a zip archive from its central directory, on archives built byte by byte:
// stored and compressed entries, zip64 sizes and directory, a comment, and files that are no zip.
#include "support/catch.h"
#include "support/error_of.h"
#include "support/scratch_dir.h"

#include "graphbench/core/data/zip_sizes.h"

#include <fstream>
#include <string>
#include <vector>

namespace {

struct Entry {
  std::string name;
  std::uint64_t compressed = 0;
  std::uint64_t uncompressed = 0;
  bool zip64 = false;  // sizes in a zip64 extra field, 0xffffffff in the header
};

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// An archive of the entries' central directory (what the reader reads; the entries' data is left
// out, as a directory at offset `data_bytes` of filler would point to it), optionally with zip64
// end records, and a comment.
std::string archive(const std::vector<Entry>& entries, bool zip64_end = false, const std::string& comment = "") {
  const std::size_t data_bytes = 64;
  std::string out(data_bytes, 'x');
  std::string dir;
  for (const Entry& e : entries) {
    put(dir, 0x02014b50, 4);
    put(dir, 45, 2);  // made by
    put(dir, 45, 2);  // needed
    put(dir, 0, 2);   // flags
    put(dir, 0, 2);   // method (the reader ignores it)
    put(dir, 0, 4);   // time, date
    put(dir, 0, 4);   // crc
    put(dir, e.zip64 ? 0xffffffff : e.compressed, 4);
    put(dir, e.zip64 ? 0xffffffff : e.uncompressed, 4);
    put(dir, e.name.size(), 2);
    put(dir, e.zip64 ? 4 + 16 : 0, 2);  // extra
    put(dir, 0, 2);                     // comment
    put(dir, 0, 2);                     // disk
    put(dir, 0, 2);                     // internal attributes
    put(dir, 0, 4);                     // external attributes
    put(dir, 0, 4);                     // local header offset
    dir += e.name;
    if (e.zip64) {
      put(dir, 0x0001, 2);
      put(dir, 16, 2);
      put(dir, e.uncompressed, 8);
      put(dir, e.compressed, 8);
    }
  }
  out += dir;
  if (zip64_end) {
    const std::size_t end64_at = out.size();
    put(out, 0x06064b50, 4);
    put(out, 44, 8);
    put(out, 45, 2);
    put(out, 45, 2);
    put(out, 0, 4);
    put(out, 0, 4);
    put(out, entries.size(), 8);
    put(out, entries.size(), 8);
    put(out, dir.size(), 8);
    put(out, data_bytes, 8);
    put(out, 0x07064b50, 4);
    put(out, 0, 4);
    put(out, end64_at, 8);
    put(out, 1, 4);
  }
  put(out, 0x06054b50, 4);
  put(out, 0, 2);
  put(out, 0, 2);
  put(out, zip64_end ? 0xffff : entries.size(), 2);
  put(out, zip64_end ? 0xffff : entries.size(), 2);
  put(out, zip64_end ? 0xffffffff : dir.size(), 4);
  put(out, zip64_end ? 0xffffffff : data_bytes, 4);
  put(out, comment.size(), 2);
  return out + comment;
}

std::string write(const graphbench::testing::ScratchDir& dir, const std::string& name, const std::string& bytes) {
  const std::string path = (dir.path() / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("zip sizes: the sum of the entries' uncompressed sizes, stored or compressed", "[data]") {
  graphbench::testing::ScratchDir dir("graphbench-zip");
  const std::string path = write(dir, "m.pt2",
                                 archive({{"m/data/aotinductor/model/m.so", 1000, 1000},
                                          {"m/data/constants/cache", 10, 5000},  // compressed
                                          {"m/version", 1, 1}},
                                         false, "a comment"));
  CHECK(graphbench::unpacked_zip_bytes(path) == 6001);
  CHECK(graphbench::unpacked_zip_bytes(write(dir, "empty.zip", archive({}))) == 0);
}

TEST_CASE("zip sizes: zip64 sizes and a zip64 directory (archives over 4 GiB)", "[data]") {
  graphbench::testing::ScratchDir dir("graphbench-zip");
  const std::uint64_t big = std::uint64_t{9} << 30;
  const std::string path =
      write(dir, "big.pt2", archive({{"m/data/constants/cache", big, big, true}, {"m/version", 1, 1}}, true));
  CHECK(graphbench::unpacked_zip_bytes(path) == big + 1);
}

TEST_CASE("zip sizes: a file that is no zip archive, or one cut short, is bad input naming it", "[data]") {
  graphbench::testing::ScratchDir dir("graphbench-zip");
  const std::string text = write(dir, "m.pt", std::string(100, 'a'));
  CHECK(graphbench::testing::input_error_of([&] { graphbench::unpacked_zip_bytes(text); }) ==
        text + ": not a readable zip archive: no end-of-central-directory record");
  const std::string tiny = write(dir, "tiny.pt2", "PK");
  CHECK(graphbench::testing::input_error_of([&] { graphbench::unpacked_zip_bytes(tiny); }) ==
        tiny + ": not a readable zip archive: shorter than an end-of-central-directory record");
  std::string cut = archive({{"a", 1, 1}, {"b", 2, 2}});
  cut.replace(64 + 46 + 1, 4, "QQQQ");  // the second entry's signature
  const std::string broken = write(dir, "broken.pt2", cut);
  CHECK(graphbench::testing::input_error_of([&] { graphbench::unpacked_zip_bytes(broken); }) ==
        broken + ": not a readable zip archive: central directory entry 2 of 2 is cut short or malformed");
  const std::string missing = (dir.path() / "none.pt2").string();
  CHECK(graphbench::testing::input_error_of([&] { graphbench::unpacked_zip_bytes(missing); }) ==
        missing + ": cannot open it to read its zip directory");
}
