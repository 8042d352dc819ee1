// One load per key and process (the AOTInductor packages of a run), on a stand-in resource that
// counts how many of it are alive.
#include "support/catch.h"

#include "graphbench/core/base/shared_load_cache.h"

#include <stdexcept>
#include <vector>

namespace {

struct Resource {
  explicit Resource(std::string k, int* alive) : key(std::move(k)), alive_(alive) { ++*alive_; }
  ~Resource() { --*alive_; }
  std::string key;

 private:
  int* alive_;
};

struct Fixture {
  graphbench::SharedLoadCache<Resource> cache;
  int alive = 0;
  std::vector<std::string> loaded;  // the keys loaded, in order
  std::vector<int> alive_at_load;   // how many were alive as each load began

  std::shared_ptr<Resource> get(const std::string& key) {
    return cache.get(key, [&] {
      loaded.push_back(key);
      alive_at_load.push_back(alive);
      return std::make_shared<Resource>(key, &alive);
    });
  }
};

}  // namespace

TEST_CASE("shared load cache: holders of one key share one load", "[core]") {
  Fixture f;
  auto a = f.get("pkg.pt2|cuda:0");
  auto b = f.get("pkg.pt2|cuda:0");
  CHECK(a == b);
  CHECK(f.cache.loads() == 1);
  CHECK(f.alive == 1);
}

TEST_CASE("shared load cache: holders one after the other (the points of a sweep) share one load", "[core]") {
  Fixture f;
  for (int point = 0; point < 33; ++point) {
    auto held = f.get("pkg.pt2|cuda:0");  // made and dropped, as a case is
    CHECK(held->key == "pkg.pt2|cuda:0");
  }
  CHECK(f.cache.loads() == 1);
  CHECK(f.alive == 1);  // the last one is kept
  f.cache.release_kept();
  CHECK(f.alive == 0);
}

TEST_CASE("shared load cache: another device or another file is a load of its own", "[core]") {
  Fixture f;
  auto on_0 = f.get("pkg.pt2|cuda:0");
  auto on_1 = f.get("pkg.pt2|cuda:1");
  auto other = f.get("other.pt2|cuda:0");
  CHECK(on_0 != on_1);
  CHECK(on_0 != other);
  CHECK(f.loaded == std::vector<std::string>{"pkg.pt2|cuda:0", "pkg.pt2|cuda:1", "other.pt2|cuda:0"});
  CHECK(f.alive == 3);  // all held
  CHECK(f.cache.alive() == 3);
}

TEST_CASE("shared load cache: the kept one is released before another key loads, and loaded again later", "[core]") {
  Fixture f;
  f.get("a.pt2|cuda:0");  // dropped at once: only the cache keeps it
  CHECK(f.alive == 1);
  f.get("b.pt2|cuda:0");
  CHECK(f.alive_at_load == std::vector<int>{0, 0});  // a was gone before b was unpacked
  CHECK(f.alive == 1);
  f.get("a.pt2|cuda:0");
  CHECK(f.loaded == std::vector<std::string>{"a.pt2|cuda:0", "b.pt2|cuda:0", "a.pt2|cuda:0"});
}

TEST_CASE("shared load cache: a resource a holder keeps outlives the cache's switch to another key", "[core]") {
  Fixture f;
  auto a = f.get("a.pt2|cuda:0");
  f.get("b.pt2|cuda:0");
  CHECK(f.alive_at_load == std::vector<int>{0, 1});  // a is held by its holder, not by the cache
  CHECK(f.get("a.pt2|cuda:0") == a);                  // no second load while held
  CHECK(f.cache.loads() == 2);
  a.reset();
  f.get("b.pt2|cuda:0");  // the cache now keeps b, and a has no holder left
  CHECK(f.alive == 1);
  CHECK(f.cache.alive() == 1);
}

TEST_CASE("shared load cache: a load that throws caches nothing", "[core]") {
  Fixture f;
  CHECK_THROWS_AS(f.cache.get("bad.pt2|cuda:0", []() -> std::shared_ptr<Resource> { throw std::runtime_error("x"); }),
                  std::runtime_error);
  CHECK(f.cache.loads() == 0);
  f.get("bad.pt2|cuda:0");
  CHECK(f.cache.loads() == 1);
}
