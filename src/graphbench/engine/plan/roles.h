// The role of every value from outside a program (docs/design.md): input (every step's batch),
// param (weights), state (optimizer state: momentum, Adam's moments and step, the learning rate).
#pragma once

#include <cstdint>
#include <string>

namespace graphbench {

enum class Role : std::uint8_t { kInput = 1, kParam = 2, kState = 4 };

const char* to_string(Role role);

// A small set of roles, e.g. the static_roles or copy_roles of a policy.
class RoleSet {
 public:
  constexpr RoleSet() = default;
  constexpr RoleSet(std::initializer_list<Role> roles) {
    for (Role r : roles) bits_ |= static_cast<std::uint8_t>(r);
  }
  constexpr bool contains(Role role) const { return (bits_ & static_cast<std::uint8_t>(role)) != 0; }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr bool operator==(const RoleSet& other) const { return bits_ == other.bits_; }
  constexpr bool operator!=(const RoleSet& other) const { return bits_ != other.bits_; }

 private:
  std::uint8_t bits_ = 0;
};

// "{input, param}"
std::string to_string(RoleSet roles);

}  // namespace graphbench
