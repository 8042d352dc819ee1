// The IDX reader and the MNIST file loader, on small IDX files the tests write themselves (raw and
// gzipped), plus the real Fashion-MNIST test split where Debian's package is installed.
#include "support/catch.h"
#include "support/skip.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/data/mnist_files.h"

#include <zlib.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Catch::Contains;
using graphbench::InputError;
using Bytes = std::vector<std::uint8_t>;

namespace {

// An IDX array: its dimensions (outermost first) and its elements in row-major order.
struct IdxArray {
  std::vector<std::int64_t> dims;
  std::vector<std::uint8_t> data;
};

// The whole file through read_idx_into, into a vector as large as its header declares.
IdxArray read_idx_file(const std::string& path, int expected_dims = 0) {
  IdxArray array;
  array.dims = graphbench::read_idx_into(
      path,
      [&](const std::vector<std::int64_t>& dims) {
        array.data.resize(static_cast<std::size_t>(
            std::accumulate(dims.begin(), dims.end(), std::int64_t{1}, std::multiplies<>())));
        return array.data.data();
      },
      graphbench::kMaxMnistFileBytes, expected_dims);
  return array;
}

// One split: `count` images of rows x cols bytes (row-major, image after image) and `count` labels.
struct MnistSplit {
  std::int64_t count = 0;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::uint8_t> images;
  std::vector<std::uint8_t> labels;
};

// load_mnist_split_into, into vectors.
MnistSplit load_mnist_split(const std::string& dir, bool train) {
  MnistSplit split;
  graphbench::MnistDestination destination;
  destination.images = [&](std::int64_t count, std::int64_t rows, std::int64_t cols) {
    split.images.resize(static_cast<std::size_t>(count * rows * cols));
    return split.images.data();
  };
  destination.labels = [&](std::int64_t count) {
    split.labels.resize(static_cast<std::size_t>(count));
    return split.labels.data();
  };
  const graphbench::MnistShape shape = graphbench::load_mnist_split_into(dir, train, destination);
  split.count = shape.count;
  split.rows = shape.rows;
  split.cols = shape.cols;
  return split;
}

// A fresh directory under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::random_device device;
    for (int attempt = 0;; ++attempt) {
      path_ = fs::temp_directory_path() / ("graphbench-idx-test-" + std::to_string(device()));
      if (fs::create_directory(path_)) break;
      if (attempt > 100) throw std::runtime_error("cannot create a temporary directory");
    }
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

// Sets or unsets an environment variable for one scope, then restores it.
class EnvGuard {
 public:
  explicit EnvGuard(const char* name) : name_(name) {
    if (const char* value = std::getenv(name)) saved_ = value;
  }
  ~EnvGuard() {
    if (saved_) {
      setenv(name_, saved_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;
  void set(const std::string& value) { setenv(name_, value.c_str(), 1); }
  void unset() { unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

Bytes idx_bytes(const std::vector<std::uint32_t>& dims, const Bytes& data, std::uint8_t type = 0x08) {
  Bytes out = {0, 0, type, static_cast<std::uint8_t>(dims.size())};
  for (std::uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(d >> shift));
  }
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

Bytes iota_bytes(std::size_t n, std::uint8_t modulo = 251) {
  Bytes out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>((i * 7 + 3) % modulo);
  return out;
}

void write_raw(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

void write_gz(const std::string& path, const Bytes& bytes) {
  gzFile file = gzopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  if (!bytes.empty()) {
    REQUIRE(gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size()));
  }
  REQUIRE(gzclose(file) == Z_OK);
}

Bytes read_raw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Writes a split's two files (images count x rows x cols, labels) under the MNIST names.
void write_split(const TempDir& dir, bool train, std::uint32_t images, std::uint32_t labels, bool gz,
                 std::uint32_t rows = 4, std::uint32_t cols = 3) {
  const std::string prefix = train ? "train" : "t10k";
  const std::string suffix = gz ? ".gz" : "";
  const auto write = gz ? write_gz : write_raw;
  write(dir.file(prefix + "-images-idx3-ubyte" + suffix),
        idx_bytes({images, rows, cols}, iota_bytes(std::size_t{images} * rows * cols)));
  write(dir.file(prefix + "-labels-idx1-ubyte" + suffix), idx_bytes({labels}, iota_bytes(labels, 10)));
}

}  // namespace

TEST_CASE("read_idx_file round-trips a raw file", "[idx]") {
  TempDir dir;
  const Bytes data = iota_bytes(5 * 4 * 3);
  write_raw(dir.file("a-idx3-ubyte"), idx_bytes({5, 4, 3}, data));
  const IdxArray array = read_idx_file(dir.file("a-idx3-ubyte"));
  CHECK(array.dims == std::vector<std::int64_t>{5, 4, 3});
  CHECK(array.data == data);
}

TEST_CASE("read_idx_file round-trips a gzipped file", "[idx]") {
  TempDir dir;
  const Bytes data = iota_bytes(300000);  // several zlib buffers
  write_gz(dir.file("b.gz"), idx_bytes({1000, 300}, data));
  const IdxArray array = read_idx_file(dir.file("b.gz"));
  CHECK(array.dims == std::vector<std::int64_t>{1000, 300});
  CHECK(array.data == data);

  write_gz(dir.file("labels.gz"), idx_bytes({7}, iota_bytes(7, 10)));
  const IdxArray labels = read_idx_file(dir.file("labels.gz"));
  CHECK(labels.dims == std::vector<std::int64_t>{7});
  CHECK(labels.data == iota_bytes(7, 10));
}

TEST_CASE("read_idx_file accepts a dimension of size zero", "[idx]") {
  TempDir dir;
  write_raw(dir.file("empty"), idx_bytes({0, 28, 28}, {}));
  const IdxArray array = read_idx_file(dir.file("empty"));
  CHECK(array.dims == std::vector<std::int64_t>{0, 28, 28});
  CHECK(array.data.empty());
}

TEST_CASE("read_idx_file: missing or unreadable file", "[idx]") {
  TempDir dir;
  const std::string missing = dir.file("nope-idx1-ubyte");
  REQUIRE_THROWS_AS(read_idx_file(missing), InputError);
  REQUIRE_THROWS_WITH(read_idx_file(missing),
                      "cannot open IDX file " + missing + ": No such file or directory");
  // A directory opens but cannot be read.
  REQUIRE_THROWS_WITH(read_idx_file(dir.str()),
                      Contains("cannot read IDX file " + dir.str()) && Contains("Is a directory"));
}

TEST_CASE("read_idx_file: bad magic number", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("zip");
  write_raw(path, {0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0});
  REQUIRE_THROWS_WITH(read_idx_file(path), Contains(path + ": not an IDX file: magic number is 50 4b 03 04") &&
                                               Contains("expected 00 00 then a type byte"));
}

TEST_CASE("read_idx_file: unsupported data type", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("floats");
  write_raw(path, idx_bytes({2}, Bytes(8), 0x0D));
  REQUIRE_THROWS_WITH(read_idx_file(path),
                      path + ": unsupported IDX data type 0x0d (float): only 0x08 (unsigned byte, as in MNIST) is "
                             "supported");
}

TEST_CASE("read_idx_file: zero dimensions", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("scalar");
  write_raw(path, {0, 0, 8, 0, 42});
  REQUIRE_THROWS_WITH(read_idx_file(path), Contains("declares 0 dimensions"));
}

TEST_CASE("read_idx_file: corrupt gzip stream", "[idx]") {
  TempDir dir;
  const std::string good = dir.file("good.gz");
  write_gz(good, idx_bytes({100, 100}, iota_bytes(10000)));
  const Bytes gz = read_raw(good);
  REQUIRE(gz.size() > 40);

  SECTION("damaged deflate data") {
    Bytes bad = gz;
    for (std::size_t i = 12; i < bad.size() - 10; i += 3) bad[i] ^= 0xA5;
    const std::string path = dir.file("damaged.gz");
    write_raw(path, bad);
    REQUIRE_THROWS_WITH(read_idx_file(path), Contains(path + ": corrupt gzip stream: "));
  }
  SECTION("cut short") {
    const std::string path = dir.file("short.gz");
    write_raw(path, Bytes(gz.begin(), gz.begin() + static_cast<std::ptrdiff_t>(gz.size() / 2)));
    REQUIRE_THROWS_WITH(read_idx_file(path), path + ": corrupt gzip stream: unexpected end of file");
  }
}

TEST_CASE("read_idx_file: truncated header", "[idx]") {
  TempDir dir;
  const std::string empty = dir.file("empty");
  write_raw(empty, {});
  REQUIRE_THROWS_WITH(read_idx_file(empty),
                      empty + ": truncated IDX header: expected a 4-byte magic number, found 0 bytes");

  const std::string path = dir.file("short-header");
  Bytes bytes = idx_bytes({60000, 28, 28}, {});
  bytes.resize(10);
  write_raw(path, bytes);
  REQUIRE_THROWS_WITH(read_idx_file(path),
                      path + ": truncated IDX header: expected 12 bytes of dimension sizes for 3 dimensions, found 6");
}

TEST_CASE("read_idx_file: truncated data", "[idx]") {
  TempDir dir;
  const std::string raw = dir.file("train-images-idx3-ubyte");
  write_raw(raw, idx_bytes({60000, 28, 28}, iota_bytes(1000)));
  REQUIRE_THROWS_WITH(read_idx_file(raw),
                      raw + ": truncated IDX data: expected 47040000 data bytes for dims 60000x28x28, found 1000");
  const std::string gz = dir.file("train-images-idx3-ubyte.gz");
  write_gz(gz, idx_bytes({60000, 28, 28}, iota_bytes(1000)));
  REQUIRE_THROWS_WITH(read_idx_file(gz),
                      gz + ": truncated IDX data: expected 47040000 data bytes for dims 60000x28x28, found 1000");
}

TEST_CASE("read_idx_file: a header too large to be true", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("huge");
  write_raw(path, idx_bytes({0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, iota_bytes(10)));
  REQUIRE_THROWS_WITH(read_idx_file(path), Contains("too large"));
  const std::string big = dir.file("big");
  write_raw(big, idx_bytes({0xFFFFFFFF, 0xFFFF}, iota_bytes(10)));
  REQUIRE_THROWS_WITH(read_idx_file(big), Contains("declare 281470681677825 data bytes, too large for this reader"));
}

TEST_CASE("read_idx_file: trailing bytes", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("long");
  write_raw(path, idx_bytes({2, 3}, iota_bytes(6 + 5)));
  REQUIRE_THROWS_WITH(read_idx_file(path), path + ": 5 trailing bytes after the 6 data bytes for dims 2x3");
  const std::string gz = dir.file("long.gz");
  write_gz(gz, idx_bytes({2, 3}, iota_bytes(6 + 10000)));
  REQUIRE_THROWS_WITH(read_idx_file(gz), gz + ": 10000 trailing bytes after the 6 data bytes for dims 2x3");
}

TEST_CASE("read_idx_into inflates straight into the caller's memory, raw or gzipped", "[idx]") {
  TempDir dir;
  const Bytes data = iota_bytes(5 * 7);
  for (const bool gz : {false, true}) {
    const std::string path = dir.file(gz ? "a.gz" : "a");
    (gz ? write_gz : write_raw)(path, idx_bytes({5, 7}, data));
    Bytes memory(data.size() + 2, 0xEE);  // a guard byte on each side
    std::vector<std::int64_t> asked;
    const auto dims = graphbench::read_idx_into(
        path,
        [&](const std::vector<std::int64_t>& d) {
          asked = d;
          return memory.data() + 1;
        },
        1000);
    CHECK(dims == std::vector<std::int64_t>{5, 7});
    CHECK(asked == dims);
    CHECK(Bytes(memory.begin() + 1, memory.end() - 1) == data);
    CHECK(memory.front() == 0xEE);
    CHECK(memory.back() == 0xEE);
  }
}

TEST_CASE("read_idx_into: refuses data above the limit before asking for memory, checks as read_idx_file", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("big.gz");
  write_gz(path, idx_bytes({60000, 28, 28}, iota_bytes(1000)));
  bool asked = false;
  const auto never = [&](const std::vector<std::int64_t>&) -> std::uint8_t* {
    asked = true;
    return nullptr;
  };
  REQUIRE_THROWS_WITH(graphbench::read_idx_into(path, never, 1 << 20),
                      path + ": IDX dims 60000x28x28 declare 47040000 data bytes, too large for this reader (at most "
                             "1048576)");
  CHECK_FALSE(asked);
  // Within the limit: truncation and trailing bytes are found as read_idx_file finds them.
  Bytes memory(47040000);
  REQUIRE_THROWS_WITH(graphbench::read_idx_into(path, [&](const std::vector<std::int64_t>&) { return memory.data(); },
                                                std::int64_t{1} << 30),
                      path + ": truncated IDX data: expected 47040000 data bytes for dims 60000x28x28, found 1000");
  const std::string long_file = dir.file("long");
  write_raw(long_file, idx_bytes({2, 3}, iota_bytes(6 + 5)));
  REQUIRE_THROWS_WITH(graphbench::read_idx_into(long_file, [&](const std::vector<std::int64_t>&) { return memory.data(); }, 100),
                      long_file + ": 5 trailing bytes after the 6 data bytes for dims 2x3");
}

TEST_CASE("load_mnist_split_into asks for memory once the headers are checked", "[mnist]") {
  TempDir dir;
  write_split(dir, true, 6, 6, true);
  Bytes images;
  Bytes labels;
  graphbench::MnistDestination destination;
  destination.images = [&](std::int64_t count, std::int64_t rows, std::int64_t cols) {
    CHECK(count == 6);
    CHECK(rows == 4);
    CHECK(cols == 3);
    images.resize(static_cast<std::size_t>(count * rows * cols));
    return images.data();
  };
  destination.labels = [&](std::int64_t count) {
    labels.resize(static_cast<std::size_t>(count));
    return labels.data();
  };
  const auto shape = graphbench::load_mnist_split_into(dir.str(), true, destination);
  CHECK(shape.count == 6);
  CHECK(images == iota_bytes(6 * 4 * 3));
  CHECK(labels == iota_bytes(6, 10));
  // A destination may refuse a shape (the MNIST network wants 28x28): its error comes through.
  destination.images = [](std::int64_t, std::int64_t, std::int64_t) -> std::uint8_t* {
    throw InputError("images are 4x3");
  };
  REQUIRE_THROWS_WITH(graphbench::load_mnist_split_into(dir.str(), true, destination), "images are 4x3");
}

TEST_CASE("MNIST data directory: --data-dir, then GRAPHBENCH_DATA, then the default", "[mnist]") {
  using graphbench::locate_mnist_dir;
  using graphbench::resolve_mnist_dir;
  EnvGuard env(graphbench::kMnistDataEnv);

  env.unset();
  CHECK(resolve_mnist_dir(std::nullopt) == "/usr/share/datasets/fashion-mnist");
  CHECK(std::string(graphbench::kDefaultMnistDir) == "/usr/share/datasets/fashion-mnist");
  CHECK(locate_mnist_dir(std::nullopt).source == "default");
  CHECK(resolve_mnist_dir(std::string("/flag/dir")) == "/flag/dir");
  CHECK(locate_mnist_dir(std::string("/flag/dir")).source == "--data-dir");

  env.set("/env/dir");
  CHECK(resolve_mnist_dir(std::nullopt) == "/env/dir");
  CHECK(locate_mnist_dir(std::nullopt).source == "GRAPHBENCH_DATA");
  CHECK(resolve_mnist_dir(std::string("/flag/dir")) == "/flag/dir");  // the flag wins
  CHECK(locate_mnist_dir(std::string("/flag/dir")).source == "--data-dir");

  env.set("");  // set but empty counts as unset
  CHECK(locate_mnist_dir(std::nullopt).source == "default");

  REQUIRE_THROWS_WITH(resolve_mnist_dir(std::string()), Contains("--data-dir is empty"));
}

TEST_CASE("load_mnist_split reads raw and gzipped splits", "[mnist]") {
  TempDir dir;
  write_split(dir, true, 6, 6, false);
  write_split(dir, false, 4, 4, true, 5, 2);

  const auto train = load_mnist_split(dir.str(), true);
  CHECK(train.count == 6);
  CHECK(train.rows == 4);
  CHECK(train.cols == 3);
  CHECK(train.images == iota_bytes(6 * 4 * 3));
  CHECK(train.labels == iota_bytes(6, 10));

  const auto test = load_mnist_split(dir.str(), false);
  CHECK(test.count == 4);
  CHECK(test.rows == 5);
  CHECK(test.cols == 2);
  CHECK(test.images.size() == 4 * 5 * 2);
  CHECK(test.labels == iota_bytes(4, 10));
}

TEST_CASE("load_mnist_split prefers the raw file when both exist", "[mnist]") {
  TempDir dir;
  write_split(dir, false, 3, 3, true);
  write_split(dir, false, 2, 2, false);
  CHECK(graphbench::find_mnist_file(dir.str(), false, false) == dir.file("t10k-images-idx3-ubyte"));
  CHECK(load_mnist_split(dir.str(), false).count == 2);
  fs::remove(dir.file("t10k-images-idx3-ubyte"));
  fs::remove(dir.file("t10k-labels-idx1-ubyte"));
  CHECK(load_mnist_split(dir.str(), false).count == 3);
}

TEST_CASE("load_mnist_split: files not found", "[mnist]") {
  TempDir dir;
  const std::string raw = dir.file("train-images-idx3-ubyte");
  REQUIRE_THROWS_WITH(
      load_mnist_split(dir.str(), true),
      "MNIST training images not found: tried " + raw + " and " + raw + ".gz; install Debian's "
      "dataset-fashion-mnist package (apt-get install dataset-fashion-mnist) or put MNIST's four files "
      "(train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, raw "
      "or .gz) in --data-dir or GRAPHBENCH_DATA");
  // Images present, labels missing.
  write_split(dir, false, 2, 2, false);
  fs::remove(dir.file("t10k-labels-idx1-ubyte"));
  REQUIRE_THROWS_WITH(load_mnist_split(dir.str(), false),
                      Contains("MNIST test labels not found: tried " + dir.file("t10k-labels-idx1-ubyte")));
}

TEST_CASE("load_mnist_split: mismatched counts", "[mnist]") {
  TempDir dir;
  write_split(dir, true, 60, 59, true);
  REQUIRE_THROWS_WITH(load_mnist_split(dir.str(), true),
                      dir.file("train-labels-idx1-ubyte.gz") + " has 59 labels but " +
                          dir.file("train-images-idx3-ubyte.gz") + " has 60 images");
}

TEST_CASE("load_mnist_split: a wrong magic number (dimensions) is named before any data is read", "[mnist]") {
  TempDir dir;
  write_split(dir, true, 3, 3, false);
  SECTION("images 2-D") {
    write_raw(dir.file("train-images-idx3-ubyte"), idx_bytes({3, 12}, iota_bytes(36)));
    REQUIRE_THROWS_WITH(load_mnist_split(dir.str(), true),
                        dir.file("train-images-idx3-ubyte") +
                            ": wrong magic number 00 00 08 02: expected 00 00 08 03 (3 dimensions of unsigned bytes: "
                            "images, count x rows x cols)");
  }
  SECTION("images whose magic says labels: once read as labels plus trailing bytes") {
    Bytes bytes = idx_bytes({3, 4, 3}, iota_bytes(36));
    bytes[3] = 1;  // 00 00 08 01
    write_raw(dir.file("train-images-idx3-ubyte"), bytes);
    REQUIRE_THROWS_WITH(load_mnist_split(dir.str(), true),
                        dir.file("train-images-idx3-ubyte") +
                            ": wrong magic number 00 00 08 01: expected 00 00 08 03 (3 dimensions of unsigned bytes: "
                            "images, count x rows x cols)");
  }
  SECTION("labels 2-D") {
    write_raw(dir.file("train-labels-idx1-ubyte"), idx_bytes({3, 1}, iota_bytes(3, 10)));
    REQUIRE_THROWS_WITH(load_mnist_split(dir.str(), true),
                        dir.file("train-labels-idx1-ubyte") +
                            ": wrong magic number 00 00 08 02: expected 00 00 08 01 (1 dimension of unsigned bytes: "
                            "labels)");
  }
  SECTION("read_idx_file without an expectation reads any number of dimensions") {
    CHECK(read_idx_file(dir.file("train-labels-idx1-ubyte")).dims.size() == 1);
    CHECK_THROWS_WITH(read_idx_file(dir.file("train-labels-idx1-ubyte"), 3), Contains("wrong magic number 00 00 08 01"));
  }
}

TEST_CASE("load_mnist_split: labels outside 0..9", "[mnist]") {
  TempDir dir;
  write_split(dir, true, 5, 5, false);
  write_raw(dir.file("train-labels-idx1-ubyte"), idx_bytes({5}, {1, 9, 0, 10, 200}));
  REQUIRE_THROWS_WITH(load_mnist_split(dir.str(), true),
                      dir.file("train-labels-idx1-ubyte") + ": label 10 at index 3 is outside 0..9");
}

TEST_CASE("load_mnist_split reads the real Fashion-MNIST test split", "[mnist][data]") {
  const std::string dir = graphbench::kDefaultMnistDir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) GRAPHBENCH_SKIP(dir << " does not exist (apt-get install dataset-fashion-mnist)");
  const auto split = load_mnist_split(dir, false);
  CHECK(split.count == 10000);
  CHECK(split.rows == 28);
  CHECK(split.cols == 28);
  CHECK(split.images.size() == 10000u * 28u * 28u);
  REQUIRE(split.labels.size() == 10000u);
  std::array<int, 10> per_class{};
  for (std::uint8_t label : split.labels) ++per_class.at(label);  // load_mnist_split checked 0..9
  for (int count : per_class) CHECK(count > 0);  // every class present
}
