// The message of the exception a piece of test code throws, for checks of error messages.
#pragma once

#include "graphbench/core/base/errors.h"

#include <string>

namespace graphbench::testing {

// The what() of the `Error` (or subclass) that `f` throws. Any other exception propagates (and
// fails the test); no exception gives a text that no check expects.
template <typename Error, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no exception was thrown>";
}

template <typename F>
std::string input_error_of(F&& f) {
  return message_of<InputError>(std::forward<F>(f));
}

}  // namespace graphbench::testing
