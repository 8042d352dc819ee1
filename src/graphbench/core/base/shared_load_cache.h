// One load of a costly resource per key and process: holders asking for the same key share one
// std::shared_ptr while any holds it (the cache keeps weak references), and the last one handed out
// is kept until a different key is asked for. The AOTInductor packages go through it
// (engine/ops/aoti_package.cpp): LibTorch unpacks a package on every load, and a sweep's points are
// made one after the other, then held at once; so a package is unpacked once, and one at a time.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace graphbench {

template <typename T>
class SharedLoadCache {
 public:
  using Loader = std::function<std::shared_ptr<T>()>;

  // The resource for `key`: the one a holder (or the cache) still has, else what `load` returns.
  // The resource kept from an earlier key is released before `load` runs, so that the two are not
  // held at once by the cache. `load` may throw; nothing is cached then.
  std::shared_ptr<T> get(const std::string& key, const Loader& load) {
    std::lock_guard<std::mutex> lock(mutex_);
    forget_expired();
    if (auto held = find(key)) {
      kept_ = held;
      return held;
    }
    kept_.reset();  // before the load: the earlier resource's memory and disk are given back first
    forget_expired();
    std::shared_ptr<T> loaded = load();
    entries_[key] = loaded;
    kept_ = loaded;
    ++loads_;
    return loaded;
  }

  // Drops the kept resource (holders keep theirs).
  void release_kept() {
    std::lock_guard<std::mutex> lock(mutex_);
    kept_.reset();
    forget_expired();
  }

  // How many times a loader ran, and how many resources are alive now (held by someone).
  std::size_t loads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return loads_;
  }
  std::size_t alive() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t n = 0;
    for (const auto& entry : entries_) n += entry.second.expired() ? 0 : 1;
    return n;
  }

 private:
  std::shared_ptr<T> find(const std::string& key) const {
    const auto found = entries_.find(key);
    return found == entries_.end() ? nullptr : found->second.lock();
  }
  void forget_expired() {
    for (auto it = entries_.begin(); it != entries_.end();) it = it->second.expired() ? entries_.erase(it) : std::next(it);
  }

  mutable std::mutex mutex_;
  std::map<std::string, std::weak_ptr<T>> entries_;
  std::shared_ptr<T> kept_;
  std::size_t loads_ = 0;
};

}  // namespace graphbench
