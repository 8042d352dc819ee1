// Exceptions and exit codes shared by the whole tool. As in google/benchmark, an InputError (bad
// spec, results or data file) ends the run with exit code 2, while anything thrown while running one
// case is recorded on that case's result and the run goes on.
#pragma once

#include <stdexcept>

namespace graphbench {

// Documented exit codes of the `graphbench` binary.
enum ExitCode : int {
  kExitOk = 0,        // every case ok or skipped; compare: no regression
  kExitFailure = 1,   // a case failed; compare: a regression
  kExitBadInput = 2,  // bad input or usage
  kExitInterruptedBase = 128,  // stopped by a signal after writing the finished cases: 128 + the signal
};

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input: the message names the file, the place in it and what was expected.
class InputError : public Error {
 public:
  using Error::Error;
};

// A broken engine invariant detected at run time (role not static, alias rebound, pointer moved).
class EngineError : public Error {
 public:
  using Error::Error;
};

// A CUDA graph capture that failed; the capture has been ended and the reason is in what().
class CaptureError : public EngineError {
 public:
  using EngineError::EngineError;
};

// A case that cannot run inside its time limit, found by its probe (core/sampling/case_budget.h):
// its records are skipped with what(), and the run goes on.
class CaseSkipped : public Error {
 public:
  using Error::Error;
};

// Several ranks could not work together: a rendezvous or a collective timed out, a rank died, or
// the ranks disagree (different parameters after the same steps). Ends a distributed run with 1.
class DistributedError : public Error {
 public:
  using Error::Error;
};

}  // namespace graphbench
